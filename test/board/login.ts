import { env, SELF } from "cloudflare:test";
import { sessionHandler } from "../../src/board/auth/sessions";
import { ADMIN, BASE, createAccount } from "../helpers";

let handlerCounter = 0;

/** A fresh, unused handler e-mail and a password the admin API accepts (10+ characters). */
export function newHandlerIdentity(): { email: string; password: string } {
  handlerCounter += 1;
  const id = `${Date.now().toString(36)}-${handlerCounter}-${crypto.randomUUID().slice(0, 8)}`;
  return { email: `handler-${id}@insurer.test`, password: `pw-${id}-Secret!` };
}

/** Adds a handler to the account through the admin API. */
export async function addHandler(
  accountId: string,
  identity = newHandlerIdentity(),
): Promise<{ id: string; email: string; password: string }> {
  const res = await SELF.fetch(`${BASE}/admin/accounts/${accountId}/handlers`, {
    method: "POST",
    headers: ADMIN,
    body: JSON.stringify({ ...identity, name: "Test Handler" }),
  });
  if (res.status !== 201) throw new Error(`handler creation failed: ${res.status} ${await res.text()}`);
  const { handlerId } = await res.json<{ handlerId: string }>();
  return { id: handlerId, ...identity };
}

/** Value of the named cookie in a response's Set-Cookie headers (undefined when not set). */
export function setCookieValue(res: Response, name: string): string | undefined {
  for (const cookie of res.headers.getAll("set-cookie")) {
    const [pair] = cookie.split(";");
    const eq = pair.indexOf("=");
    if (pair.slice(0, eq).trim() === name) return pair.slice(eq + 1);
  }
  return undefined;
}

/** The login form as a browser gets it: its CSRF cookie (Cookie header value) and hidden field. */
export async function openLoginForm(query = ""): Promise<{ cookie: string; csrf: string; html: string }> {
  const res = await SELF.fetch(`${BASE}/board/login${query}`);
  const html = await res.text();
  const token = setCookieValue(res, "__Host-board_login");
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (res.status !== 200 || !token || !csrf) throw new Error(`login form not served: ${res.status}`);
  return { cookie: `__Host-board_login=${token}`, csrf, html };
}

/** POST /board/login as the form does (urlencoded), with the form's cookie and token. */
export async function submitLogin(
  email: string,
  password: string,
  form?: { cookie: string; csrf: string },
  query = "",
): Promise<Response> {
  const { cookie, csrf } = form ?? (await openLoginForm(query));
  return SELF.fetch(`${BASE}/board/login${query}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
    redirect: "manual",
  });
}

/**
 * A logged-in handler through the real flow: an account (new, or `accountId` with a new API key),
 * a handler added through the admin API, the login form fetched and posted. `cookie` is the value
 * for a Cookie header; `csrfToken` goes into forms as `_csrf` (or header `x-csrf-token`).
 */
export async function loginAs(opts: { accountId?: string } = {}): Promise<{
  accountId: string;
  apiKey: string;
  handler: { id: string; email: string; password: string };
  cookie: string;
  csrfToken: string;
}> {
  const { accountId, apiKey } = opts.accountId
    ? { accountId: opts.accountId, apiKey: await newApiKey(opts.accountId) }
    : await createAccount({ name: "Board Insurer" });
  const handler = await addHandler(accountId);
  const res = await submitLogin(handler.email, handler.password);
  const token = setCookieValue(res, "__Host-board_session");
  if (res.status !== 303 || !token) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const session = await sessionHandler(env.DB, token, { idleS: 1800, maxS: 43200 });
  if (!session) throw new Error("login gave no live session");
  return { accountId, apiKey, handler, cookie: `__Host-board_session=${token}`, csrfToken: session.csrfToken };
}

async function newApiKey(accountId: string): Promise<string> {
  const res = await SELF.fetch(`${BASE}/admin/accounts/${accountId}/keys`, { method: "POST", headers: ADMIN });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${await res.text()}`);
  return (await res.json<{ apiKey: string }>()).apiKey;
}
