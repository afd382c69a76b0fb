import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { accessConfig, accessEmail } from "../../board/auth/access";
import { handlerByEmail } from "../../board/auth/login";
import { createSession, revokeSession, sessionHandler } from "../../board/auth/sessions";
import { timingSafeEqual } from "../../lib/crypto";
import { drainUnread, readAtMost } from "../../lib/drain";
import { requestLanguage } from "./auth-i18n";
import { authMessagePage } from "./auth-view";
import type { BoardEnv, BoardHandler } from "./handler-context";
import { loginSettings, sessionCookie, sessionSetCookie } from "./session-cookie";

/**
 * Only a logged-in handler passes; `c.var.handler` is then set. A session cookie, or a valid
 * Cloudflare Access assertion when Access is configured (which then gets its own session cookie).
 * Without one: GET/HEAD → 303 to the login page with `next`; other methods → 401 page.
 * An Access assertion that is invalid, or whose e-mail is no handler's → 403 page.
 */
export const requireHandler = createMiddleware<BoardEnv>(async (c, next) => {
  const auth = await authenticate(c);
  if (auth === "access-denied") return refusal(c, 403, "accessDeniedTitle", "accessDeniedText");
  if (!auth) {
    if (c.req.method === "GET" || c.req.method === "HEAD") {
      const url = new URL(c.req.url);
      const target = safeNext(url.pathname + url.search);
      return c.redirect(target ? `/board/login?next=${encodeURIComponent(target)}` : "/board/login", 303);
    }
    return refusal(c, 401, "signInRequiredTitle", "signInRequiredText");
  }
  c.set("handler", auth.handler);
  await next();
  if (auth.newSessionToken) c.res.headers.append("set-cookie", sessionSetCookie(auth.newSessionToken));
});

/**
 * CSRF check of every state-changing request (after requireHandler): the form field `_csrf` or the
 * header `x-csrf-token` must equal the session's token (constant time), and a present Origin or
 * Sec-Fetch-Site must say the request comes from this site. Otherwise a 403 page.
 */
export const requireCsrf = createMiddleware<BoardEnv>(async (c, next) => {
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") return next();
  if (!fromThisSite(c)) return refusal(c, 403, "forbiddenTitle", "forbiddenText");
  const presented = c.req.header("x-csrf-token") ?? (await formField(c, "_csrf"));
  if (!presented || !timingSafeEqual(presented, c.var.handler.csrfToken)) {
    return refusal(c, 403, "forbiddenTitle", "forbiddenText");
  }
  await next();
});

/**
 * `next` after login: only a path of the board on this site (never `//host`, `/\host`, another
 * scheme, or the login/logout pages themselves); null for anything else.
 */
export function safeNext(next: string | undefined | null): string | null {
  if (!next || next.length > 2048 || !next.startsWith("/board")) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return null;
  const base = "https://board.invalid";
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  if (url.pathname !== "/board" && !url.pathname.startsWith("/board/")) return null;
  if (url.pathname.startsWith("/board/login") || url.pathname.startsWith("/board/logout")) return null;
  return url.pathname + url.search;
}

/**
 * True unless the browser says the request comes from elsewhere: an Origin other than ours, or
 * Sec-Fetch-Site other than same-origin / none. `Origin: null` says nothing: browsers send it for
 * our own forms, because the pages are served with `Referrer-Policy: no-referrer`; Sec-Fetch-Site
 * still names a cross-site sender. Absent headers (old clients, tests) leave it to the CSRF token.
 */
export function fromThisSite(c: Context<BoardEnv>): boolean {
  const origin = c.req.header("origin");
  if (origin !== undefined && origin !== "null" && !ownOrigins(c).includes(origin)) return false;
  const site = c.req.header("sec-fetch-site");
  return site === undefined || site === "same-origin" || site === "none";
}

function ownOrigins(c: Context<BoardEnv>): string[] {
  const origins = [new URL(c.req.url).origin];
  try {
    origins.push(new URL(c.env.PUBLIC_BASE_URL).origin);
  } catch {
    // No usable PUBLIC_BASE_URL: the request's own origin alone.
  }
  return origins;
}

/** Form bodies the board's forms send are small; a larger one is not read for a token. */
const FORM_MAX_BYTES = 256 * 1024;

/**
 * A text field of a urlencoded or multipart body, or undefined (another type, unreadable, or over
 * FORM_MAX_BYTES, which is then drained). hono caches the parsed body, so the route reads it again.
 */
export async function formField(c: Context, name: string): Promise<string | undefined> {
  const type = c.req.header("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return undefined;
  if (!(await bodyWithinLimit(c))) return undefined;
  try {
    const value = (await c.req.parseBody())[name];
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** True when the body is at most FORM_MAX_BYTES; a chunked one is buffered (bounded) for the parser. */
async function bodyWithinLimit(c: Context): Promise<boolean> {
  const body = c.req.raw.body;
  if (!body || Object.keys(c.req.bodyCache).length > 0) return true;
  const declared = c.req.header("content-length");
  if (declared !== undefined) {
    if (Number(declared) <= FORM_MAX_BYTES) return true;
    await drainUnread(c.req.raw);
    return false;
  }
  const buffered = await readAtMost(body, FORM_MAX_BYTES);
  if (!buffered) return false;
  c.req.raw = new Request(c.req.raw, { body: buffered });
  return true;
}

type Authenticated = { handler: BoardHandler; newSessionToken?: string };

async function authenticate(c: Context<BoardEnv>): Promise<Authenticated | "access-denied" | null> {
  const settings = loginSettings(c.env);
  const token = sessionCookie(c);
  const background = c.req.header("x-board-background") === "1";
  const session = token ? await sessionHandler(c.env.DB, token, settings.lifetime, background) : null;
  const access = accessConfig(c.env);
  const assertion = c.req.header("cf-access-jwt-assertion");
  if (!access || !assertion) return session ? { handler: session } : null;
  // Behind Access the assertion decides who this is; the cookie only saves a session per request.
  const email = await accessEmail(assertion, access);
  if (!email) return "access-denied";
  if (session && session.email === email) return { handler: session };
  const handler = await handlerByEmail(c.env.DB, email);
  if (!handler) return "access-denied";
  if (token) await revokeSession(c.env.DB, token);
  const created = await createSession(c.env.DB, handler.id, settings.lifetime);
  return {
    handler: {
      id: handler.id,
      accountId: handler.accountId,
      name: handler.name,
      email: handler.email,
      csrfToken: created.csrfToken,
    },
    newSessionToken: created.token,
  };
}

function refusal(
  c: Context<BoardEnv>,
  status: 401 | 403,
  title: "accessDeniedTitle" | "signInRequiredTitle" | "forbiddenTitle",
  text: "accessDeniedText" | "signInRequiredText" | "forbiddenText",
): Response {
  const lang = requestLanguage(c);
  return authMessagePage(lang, status, title, text, `/board/login?lang=${lang}`);
}
