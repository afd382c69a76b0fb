import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";
import type { Env } from "../../src/env";
import { afterEach, describe, expect, it } from "vitest";
import { sessionHandler } from "../../src/board/auth/sessions";
import { clock } from "../../src/lib/clock";
import { ADMIN, BASE, createAccount } from "../helpers";
import { apiCase, boardGet, boardPost } from "./support";
import { addHandler, loginAs, newHandlerIdentity, openLoginForm, setCookieValue, submitLogin } from "./login";

/** Handler login and logout of the board (DESIGN §17, issue 13; docs/board.md "Login and sessions"). */
afterEach(() => clock.reset());

const LIFETIME = { idleS: 1800, maxS: 43200 };
const MINUTE = 60_000;

async function newHandler() {
  const { accountId } = await createAccount({ name: "Login Insurer" });
  return addHandler(accountId);
}

/** The login page's message (error or notice), without tags. */
function loginMessage(html: string): string | undefined {
  return /<p id="login-message"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];
}

function setCookieHeader(res: Response, name: string): string | undefined {
  return res.headers.getAll("set-cookie").find((c) => c.startsWith(`${name}=`));
}

describe("the login page", () => {
  it("is a form with labelled e-mail and password fields, German by default, with a language switch", async () => {
    const res = await SELF.fetch(`${BASE}/board/login`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toMatch(/<label for="email">E-Mail-Adresse<\/label>\s*<input id="email" name="email" type="email"/);
    expect(html).toMatch(
      /<label for="password">Passwort<\/label>\s*<input id="password" name="password" type="password"/,
    );
    expect(html).toContain('<form method="post" action="/board/login?lang=de">');
    expect(html).toContain('<link rel="stylesheet" href="/board/assets/login.css');
    expect(html).not.toMatch(/<script|style=/);
    for (const lang of ["de", "en", "pl"]) expect(html).toContain(`href="/board/login?lang=${lang}"`);
  });

  it("speaks English and Polish on ?lang= and keeps a safe next in its links", async () => {
    const en = await (await SELF.fetch(`${BASE}/board/login?lang=en&next=%2Fboard%2Fcases%3Fq%3D1`)).text();
    expect(en).toContain('<html lang="en">');
    expect(en).toContain("Sign in to the claims board");
    expect(en).toContain('action="/board/login?lang=en&amp;next=%2Fboard%2Fcases%3Fq%3D1"');
    const pl = await (await SELF.fetch(`${BASE}/board/login?lang=pl`)).text();
    expect(pl).toContain("Hasło");
  });

  it("keeps a language chosen with the switch for the board (cookie board_lang) and speaks it without ?lang=", async () => {
    const chosen = await SELF.fetch(`${BASE}/board/login?lang=pl`);
    expect(setCookieHeader(chosen, "board_lang")).toMatch(/^board_lang=pl; Path=\/board; SameSite=Strict; Secure/);
    const later = await SELF.fetch(`${BASE}/board/login`, { headers: { cookie: "board_lang=en" } });
    expect(await later.text()).toContain('<html lang="en">');
    const browser = await SELF.fetch(`${BASE}/board/login`, { headers: { "accept-language": "pl-PL,pl;q=0.9" } });
    expect(await browser.text()).toContain('<html lang="pl">');
  });

  it("sets the login CSRF cookie HttpOnly, Secure, SameSite=Strict, host-only", async () => {
    const res = await SELF.fetch(`${BASE}/board/login`);
    const cookie = setCookieHeader(res, "__Host-board_login")!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it("serves its stylesheet (visible focus) as an external file", async () => {
    const res = await SELF.fetch(`${BASE}/board/assets/login.css`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/css");
    expect(await res.text()).toContain(":focus-visible");
  });
});

describe("logging in", () => {
  it("with the right password: 303 to the board with a fresh HttpOnly, Secure, SameSite=Strict session cookie", async () => {
    const handler = await newHandler();
    const res = await submitLogin(handler.email, handler.password);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/board");
    const cookie = setCookieHeader(res, "__Host-board_session")!;
    expect(cookie).toMatch(/^__Host-board_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
    // The login form's CSRF cookie is done with.
    expect(setCookieHeader(res, "__Host-board_login")).toMatch(/Max-Age=0/);
    const session = await sessionHandler(env.DB, setCookieValue(res, "__Host-board_session")!, LIFETIME);
    expect(session).toMatchObject({ id: handler.id, email: handler.email });
  });

  it("takes the e-mail in any case and with surrounding spaces", async () => {
    const handler = await newHandler();
    const res = await submitLogin(`  ${handler.email.toUpperCase()} `, handler.password);
    expect(res.status).toBe(303);
  });

  it("stores only the token's hash: the cookie value is not a key of handler_sessions", async () => {
    const handler = await newHandler();
    const token = setCookieValue(await submitLogin(handler.email, handler.password), "__Host-board_session")!;
    const row = await env.DB.prepare("SELECT count(*) AS n FROM handler_sessions WHERE token_hash = ?")
      .bind(token)
      .first<{ n: number }>();
    expect(row!.n).toBe(0);
  });

  it("gives a new session token on every login and ends the session the browser had", async () => {
    const who = await loginAs();
    const form = await openLoginForm();
    const res = await submitLogin(who.handler.email, who.handler.password, {
      csrf: form.csrf,
      cookie: `${form.cookie}; ${who.cookie}`,
    });
    expect(res.status).toBe(303);
    const fresh = setCookieValue(res, "__Host-board_session")!;
    expect(`__Host-board_session=${fresh}`).not.toBe(who.cookie);
    expect(await sessionHandler(env.DB, who.cookie.split("=")[1], LIFETIME)).toBeNull();
    expect(await sessionHandler(env.DB, fresh, LIFETIME)).not.toBeNull();
  });

  it("answers a wrong password and an unknown e-mail alike: 401, the same generic message, no session", async () => {
    const handler = await newHandler();
    const wrong = await submitLogin(handler.email, "not-the-password");
    const unknown = await submitLogin(newHandlerIdentity().email, "not-the-password");
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(setCookieValue(res, "__Host-board_session")).toBeUndefined();
      expect(loginMessage(await res.text())).toBe("E-Mail-Adresse oder Passwort falsch.");
    }
  });

  it("keeps the typed e-mail and the form's token for the next try", async () => {
    const handler = await newHandler();
    const form = await openLoginForm("?lang=en");
    const res = await submitLogin(handler.email, "wrong-password", form, "?lang=en");
    const html = await res.text();
    expect(loginMessage(html)).toBe("E-mail or password wrong.");
    expect(html).toContain(`value="${handler.email}"`);
    expect(html).toContain(`name="_csrf" value="${form.csrf}"`);
    expect((await submitLogin(handler.email, handler.password, form, "?lang=en")).status).toBe(303);
  });

  it("refuses empty fields with the same generic message (400), without counting a failure", async () => {
    const res = await submitLogin("", "");
    expect(res.status).toBe(400);
    expect(loginMessage(await res.text())).toBe("E-Mail-Adresse oder Passwort falsch.");
  });
});

describe("the login form's CSRF protection", () => {
  it("refuses a post without the CSRF cookie, without the field, or with a token that does not match (403)", async () => {
    const handler = await newHandler();
    const form = await openLoginForm();
    const other = await openLoginForm();
    const attempts = [
      { cookie: "", csrf: form.csrf },
      { cookie: form.cookie, csrf: "" },
      { cookie: form.cookie, csrf: other.csrf },
    ];
    for (const attempt of attempts) {
      const res = await submitLogin(handler.email, handler.password, attempt);
      expect(res.status).toBe(403);
      expect(setCookieValue(res, "__Host-board_session")).toBeUndefined();
      expect(loginMessage(await res.text())).toBe("Das Formular ist abgelaufen. Bitte versuchen Sie es erneut.");
    }
  });

  it("refuses a post from another site (Origin or Sec-Fetch-Site) even with matching tokens", async () => {
    const handler = await newHandler();
    for (const header of [{ origin: "https://evil.test" }, { "sec-fetch-site": "cross-site" }] as Record<
      string,
      string
    >[]) {
      const form = await openLoginForm();
      const res = await SELF.fetch(`${BASE}/board/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: form.cookie, ...header },
        body: new URLSearchParams({ _csrf: form.csrf, email: handler.email, password: handler.password }).toString(),
        redirect: "manual",
      });
      expect(res.status).toBe(403);
    }
  });

  it("accepts a post from this site's own origin", async () => {
    const handler = await newHandler();
    const form = await openLoginForm();
    const res = await SELF.fetch(`${BASE}/board/login`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: form.cookie,
        origin: BASE,
        "sec-fetch-site": "same-origin",
      },
      body: new URLSearchParams({ _csrf: form.csrf, email: handler.email, password: handler.password }).toString(),
      redirect: "manual",
    });
    expect(res.status).toBe(303);
  });
});

describe("the lockout after five failures", () => {
  it("locks the login name at the fifth wrong password; the right one is refused too until the lock passes", async () => {
    const handler = await newHandler();
    const form = await openLoginForm();
    for (let i = 1; i <= 4; i++) expect((await submitLogin(handler.email, `wrong-${i}`, form)).status).toBe(401);
    const fifth = await submitLogin(handler.email, "wrong-5", form);
    expect(fifth.status).toBe(429);
    expect(Number(fifth.headers.get("retry-after"))).toBe(15 * 60);
    expect(loginMessage(await fifth.text())).toBe(
      "Zu viele fehlgeschlagene Anmeldungen. Bitte versuchen Sie es später erneut.",
    );
    const right = await submitLogin(handler.email, handler.password, form);
    expect(right.status).toBe(429);
    expect(setCookieValue(right, "__Host-board_session")).toBeUndefined();

    clock.advance(14 * MINUTE);
    expect((await submitLogin(handler.email, handler.password, form)).status).toBe(429);
    clock.advance(1 * MINUTE + 1000);
    expect((await submitLogin(handler.email, handler.password, form)).status).toBe(303);
  });

  it("locks an unknown e-mail exactly like a known one (the lock tells nothing about which exist)", async () => {
    const known = await newHandler();
    const unknown = newHandlerIdentity().email;
    const answers: { status: number; retryAfter: string | null; message?: string }[][] = [[], []];
    for (const [n, email] of [known.email, unknown].entries()) {
      const form = await openLoginForm();
      for (let i = 1; i <= 6; i++) {
        const res = await submitLogin(email, `wrong-${i}`, form);
        answers[n].push({
          status: res.status,
          retryAfter: res.headers.get("retry-after"),
          message: loginMessage(await res.text()),
        });
      }
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0].map((a) => a.status)).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it("doubles the lock when the first try after a lock is wrong again; a success clears the count", async () => {
    const handler = await newHandler();
    const form = await openLoginForm();
    for (let i = 1; i <= 5; i++) await submitLogin(handler.email, `wrong-${i}`, form);
    clock.advance(15 * MINUTE + 1000);
    const again = await submitLogin(handler.email, "wrong-6", form);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBe(30 * 60);
    clock.advance(30 * MINUTE + 1000);
    expect((await submitLogin(handler.email, handler.password, form)).status).toBe(303);
    // After a success the name starts again with five tries.
    for (let i = 1; i <= 4; i++) expect((await submitLogin(handler.email, `wrong-${i}`, form)).status).toBe(401);
  });

  it("lets no more than five parallel guesses check a password", async () => {
    const handler = await newHandler();
    const form = await openLoginForm();
    const statuses = (
      await Promise.all(Array.from({ length: 12 }, (_, i) => submitLogin(handler.email, `parallel-${i}`, form)))
    ).map((res) => res.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(8);
    expect((await submitLogin(handler.email, handler.password, form)).status).toBe(429);
  });

  it("does not lock other login names", async () => {
    const victim = await newHandler();
    const bystander = await newHandler();
    const form = await openLoginForm();
    for (let i = 1; i <= 5; i++) await submitLogin(victim.email, `wrong-${i}`, form);
    expect((await submitLogin(bystander.email, bystander.password, form)).status).toBe(303);
  });
});

describe("next after login", () => {
  it("goes to a board path given in next", async () => {
    const handler = await newHandler();
    const query = `?next=${encodeURIComponent("/board/cases/abc?tab=photos")}`;
    const res = await submitLogin(handler.email, handler.password, undefined, query);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/board/cases/abc?tab=photos");
  });

  it.each([
    "https://evil.test/board",
    "//evil.test/board",
    "/\\evil.test",
    "/board/../admin/accounts",
    "/boardroom",
    "javascript:alert(1)",
    "/board/login?next=//evil.test",
    "/admin/accounts",
  ])("refuses next=%s (goes to /board instead)", async (next) => {
    const handler = await newHandler();
    const res = await submitLogin(handler.email, handler.password, undefined, `?next=${encodeURIComponent(next)}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/board");
  });
});

describe("logging out", () => {
  it("ends the session and clears the cookie; the old cookie no longer works", async () => {
    const who = await loginAs();
    const res = await SELF.fetch(`${BASE}/board/logout`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: who.cookie },
      body: new URLSearchParams({ _csrf: who.csrfToken }).toString(),
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^\/board\/login\?signed-out/);
    expect(setCookieHeader(res, "__Host-board_session")).toMatch(/^__Host-board_session=; Max-Age=0; /);
    expect(await sessionHandler(env.DB, who.cookie.split("=")[1], LIFETIME)).toBeNull();
    const page = await SELF.fetch(`${BASE}${res.headers.get("location")}`);
    expect(loginMessage(await page.text())).toBe("Sie wurden abgemeldet.");
  });

  it("refuses a logout without or with a wrong CSRF token (403) and keeps the session", async () => {
    const who = await loginAs();
    for (const body of [{}, { _csrf: "forged-token" }] as Record<string, string>[]) {
      const res = await SELF.fetch(`${BASE}/board/logout`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: who.cookie },
        body: new URLSearchParams(body).toString(),
        redirect: "manual",
      });
      expect(res.status).toBe(403);
    }
    expect(await sessionHandler(env.DB, who.cookie.split("=")[1], LIFETIME)).not.toBeNull();
  });

  it("takes the token from the x-csrf-token header too", async () => {
    const who = await loginAs();
    const res = await SELF.fetch(`${BASE}/board/logout`, {
      method: "POST",
      headers: { cookie: who.cookie, "x-csrf-token": who.csrfToken },
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    expect(await sessionHandler(env.DB, who.cookie.split("=")[1], LIFETIME)).toBeNull();
  });
});

describe("the login page when already signed in", () => {
  it("sends the handler on to next or the board", async () => {
    const who = await loginAs();
    const plain = await SELF.fetch(`${BASE}/board/login`, { headers: { cookie: who.cookie }, redirect: "manual" });
    expect(plain.status).toBe(303);
    expect(plain.headers.get("location")).toBe("/board");
    const next = await SELF.fetch(`${BASE}/board/login?next=${encodeURIComponent("/board/cases/x")}`, {
      headers: { cookie: who.cookie },
      redirect: "manual",
    });
    expect(next.headers.get("location")).toBe("/board/cases/x");
    const evil = await SELF.fetch(`${BASE}/board/login?next=${encodeURIComponent("//evil.test")}`, {
      headers: { cookie: who.cookie },
      redirect: "manual",
    });
    expect(evil.headers.get("location")).toBe("/board");
  });
});

describe("login posts per client address (BOARD_LOGIN_RATE_LIMITER)", () => {
  /** A stand-in for the Workers rate-limiting binding: `limit` allowed per key, the keys it saw recorded. */
  function fakeLimiter(limit: number) {
    const counts = new Map<string, number>();
    return {
      keys: counts,
      binding: {
        limit: async ({ key }: { key: string }) => {
          counts.set(key, (counts.get(key) ?? 0) + 1);
          return { success: counts.get(key)! <= limit };
        },
      } as RateLimit,
    };
  }

  async function postFrom(
    address: string | null,
    bindings: Env,
    email: string,
    form: { cookie: string; csrf: string },
  ) {
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${BASE}/board/login?lang=en`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: form.cookie,
          ...(address ? { "cf-connecting-ip": address } : {}),
        },
        body: new URLSearchParams({ _csrf: form.csrf, email, password: "wrong-password" }).toString(),
        redirect: "manual",
      }),
      bindings,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  }

  it("refuses an address over the limit with a 429 page, whatever the e-mail; other addresses go on", async () => {
    const limiter = fakeLimiter(3);
    const bindings = { ...(env as Env), BOARD_LOGIN_RATE_LIMITER: limiter.binding };
    const form = await openLoginForm();
    for (let i = 0; i < 3; i++) {
      expect((await postFrom("203.0.113.7", bindings, newHandlerIdentity().email, form)).status).toBe(401);
    }
    const refused = await postFrom("203.0.113.7", bindings, newHandlerIdentity().email, form);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(loginMessage(await refused.text())).toBe(
      "Too many sign-in attempts from your network. Please try again in a minute.",
    );
    expect((await postFrom("198.51.100.2", bindings, newHandlerIdentity().email, form)).status).toBe(401);
    // Only a hash of the address reaches the limiter.
    expect([...limiter.keys.keys()].some((key) => key.includes("203.0.113.7"))).toBe(false);
  });

  it("does not count requests without CF-Connecting-IP", async () => {
    const limiter = fakeLimiter(0);
    const bindings = { ...(env as Env), BOARD_LOGIN_RATE_LIMITER: limiter.binding };
    const form = await openLoginForm();
    expect((await postFrom(null, bindings, newHandlerIdentity().email, form)).status).toBe(401);
    expect(limiter.keys.size).toBe(0);
  });
});

describe("removing a handler (DELETE /admin/accounts/{id}/handlers/{handlerId})", () => {
  const remove = (accountId: string, handlerId: string) =>
    SELF.fetch(`${BASE}/admin/accounts/${accountId}/handlers/${handlerId}`, { method: "DELETE", headers: ADMIN });

  it("ends the open session at once, refuses the next login like a wrong password, keeps the notes' name", async () => {
    const leaving = await loginAs();
    const colleague = await loginAs({ accountId: leaving.accountId });
    const c = await apiCase(leaving.apiKey);
    expect((await boardPost(leaving, `/board/cases/${c.ticketId}/notes`, { body: "Spoke to the garage" })).status).toBe(
      303,
    );

    expect((await remove(leaving.accountId, leaving.handler.id)).status).toBe(204);

    expect((await boardGet(leaving, "/board")).status).toBe(303);
    const login = await submitLogin(leaving.handler.email, leaving.handler.password);
    expect(login.status).toBe(401);
    expect(setCookieValue(login, "__Host-board_session")).toBeUndefined();
    const page = await (await boardGet(colleague, `/board/cases/${c.ticketId}`)).text();
    expect(page).toContain("Spoke to the garage");
    expect(page).toContain("Test Handler");
    expect((await boardGet(colleague, "/board")).status).toBe(200);
  });

  it("is repeatable (204), 404 for another account's or an unknown handler, 400 for a malformed id", async () => {
    const s = await loginAs();
    const other = await createAccount({ name: "Other Insurer" });
    expect((await remove(other.accountId, s.handler.id)).status).toBe(404);
    expect((await boardGet(s, "/board")).status).toBe(200);
    expect((await remove(s.accountId, crypto.randomUUID())).status).toBe(404);
    expect((await remove(s.accountId, "not-an-id")).status).toBe(400);
    expect((await remove(s.accountId, s.handler.id)).status).toBe(204);
    expect((await remove(s.accountId, s.handler.id)).status).toBe(204);
  });

  it("frees the e-mail for a new handler (a new id; the removed one stays out), while an active one keeps it (409)", async () => {
    const s = await loginAs();
    const add = (name: string) =>
      SELF.fetch(`${BASE}/admin/accounts/${s.accountId}/handlers`, {
        method: "POST",
        headers: ADMIN,
        body: JSON.stringify({ email: s.handler.email.toUpperCase(), password: "a new password 1", name }),
      });
    expect((await add("Twin")).status).toBe(409);
    await remove(s.accountId, s.handler.id);
    const again = await add("Back again");
    expect(again.status).toBe(201);
    const created = (await again.json()) as { handlerId: string };
    expect(created.handlerId).not.toBe(s.handler.id);
    expect((await add("Third")).status).toBe(409);
    // The old password no longer logs in; the new handler's does, as the new handler.
    expect((await submitLogin(s.handler.email, s.handler.password)).status).toBe(401);
    const login = await submitLogin(s.handler.email, "a new password 1");
    expect(login.status).toBe(303);
    expect(setCookieValue(login, "__Host-board_session")).toBeTruthy();
    expect((await boardGet(s, "/board")).status).toBe(303);
  });
});
