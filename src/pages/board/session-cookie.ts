import type { Context } from "hono";
import { generateCookie, getCookie } from "hono/cookie";
import type { LoginSettings } from "../../board/auth/login";
import { type Env, limits } from "../../env";

/**
 * `__Host-board_session`: HttpOnly, Secure, SameSite=Strict, Path=/, no Domain (the `__Host-`
 * prefix makes browsers insist on that). No Max-Age: it ends with the browser; the server ends it
 * earlier by idle and absolute expiry.
 */
const SESSION = "board_session";
/** `__Host-board_login`: the pre-session CSRF token of the login form (double submit). */
const LOGIN_CSRF = "board_login";

const ATTRIBUTES = { prefix: "host", httpOnly: true, secure: true, sameSite: "Strict", path: "/" } as const;

export function sessionCookie(c: Context): string | undefined {
  return getCookie(c, SESSION, "host");
}

export const sessionSetCookie = (token: string) => generateCookie(SESSION, token, ATTRIBUTES);
export const sessionClearCookie = () => generateCookie(SESSION, "", { ...ATTRIBUTES, maxAge: 0 });

export function loginCsrfCookie(c: Context): string | undefined {
  return getCookie(c, LOGIN_CSRF, "host");
}

/** An hour to fill in the form; a new GET /login reuses the token, so several tabs work. */
export const loginCsrfSetCookie = (token: string) => generateCookie(LOGIN_CSRF, token, { ...ATTRIBUTES, maxAge: 3600 });
export const loginCsrfClearCookie = () => generateCookie(LOGIN_CSRF, "", { ...ATTRIBUTES, maxAge: 0 });

/**
 * Adds Set-Cookie headers to a finished response. (Hono's setCookie only reaches responses built
 * through `c`, and the board's pages are plain Responses.)
 */
export function withCookies(res: Response, cookies: string[]): Response {
  for (const cookie of cookies) res.headers.append("set-cookie", cookie);
  return res;
}

/** Session lifetimes and lockout from the settings (src/env.ts limits()). */
export function loginSettings(env: Env): LoginSettings {
  const l = limits(env);
  return { lifetime: { idleS: l.boardSessionIdleS, maxS: l.boardSessionMaxS }, lockS: l.boardLoginLockS };
}
