import { type Context, Hono } from "hono";
import { z } from "zod";
import { passwordLogin } from "../../board/auth/login";
import { revokeSession, sessionHandler } from "../../board/auth/sessions";
import { timingSafeEqual } from "../../lib/crypto";
import { newToken } from "../../lib/ids";
import { ApiError } from "../../lib/problem";
import { enforceRateLimit, RATE_LIMIT_PERIOD_S } from "../../lib/rate-limit";
import { LOGIN_CSS } from "./assets/login-css";
import { chosenLanguageCookie, requestLanguage } from "./auth-i18n";
import { authMessagePage, type LoginForm, loginPage } from "./auth-view";
import type { BoardEnv } from "./handler-context";
import { formField, fromThisSite, safeNext } from "./require-handler";
import {
  loginCsrfClearCookie,
  loginCsrfCookie,
  loginCsrfSetCookie,
  loginSettings,
  sessionClearCookie,
  sessionCookie,
  sessionSetCookie,
  withCookies,
} from "./session-cookie";

/** Handler login and logout of the board (DESIGN §17, docs/board.md "Login and sessions"). */
export const boardAuthRoutes = new Hono<BoardEnv>();

boardAuthRoutes.get(
  "/assets/login.css",
  () =>
    new Response(LOGIN_CSS, {
      headers: { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=3600" },
    }),
);

const LoginFields = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
});

/** A login CSRF token the browser already holds is kept (several tabs); else a new one. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

boardAuthRoutes.get("/login", async (c) => {
  // Already signed in (a second tab, the back button): straight on to the board.
  const token = sessionCookie(c);
  if (token && (await sessionHandler(c.env.DB, token, loginSettings(c.env).lifetime))) {
    return c.redirect(safeNext(c.req.query("next")) ?? "/board", 303);
  }
  const existing = loginCsrfCookie(c);
  const csrfToken = existing && TOKEN_SHAPE.test(existing) ? existing : newToken(32);
  const form = loginForm(c, csrfToken);
  if (c.req.query("signed-out") !== undefined) form.message = { kind: "notice", key: "signedOut" };
  const language = chosenLanguageCookie(c);
  return withCookies(loginPage(form, 200), [loginCsrfSetCookie(csrfToken), ...(language ? [language] : [])]);
});

boardAuthRoutes.post("/login", async (c) => {
  if (!(await withinAddressLimit(c))) {
    const form = loginForm(c, loginCsrfCookie(c) ?? newToken(32));
    const page = loginPage({ ...form, message: { kind: "alert", key: "tooManyFromAddress" } }, 429, {
      "retry-after": String(RATE_LIMIT_PERIOD_S),
    });
    return withCookies(page, [loginCsrfSetCookie(form.csrfToken)]);
  }
  const cookieToken = loginCsrfCookie(c);
  const formToken = await formField(c, "_csrf");
  const freshToken = newToken(32);
  const form = loginForm(c, freshToken);
  const answer = (status: number, message: LoginForm["message"], headers: Record<string, string> = {}) =>
    withCookies(loginPage({ ...form, message }, status, headers), [loginCsrfSetCookie(form.csrfToken)]);

  const csrfOk =
    fromThisSite(c) &&
    !!cookieToken &&
    !!formToken &&
    TOKEN_SHAPE.test(cookieToken) &&
    timingSafeEqual(cookieToken, formToken);
  if (!csrfOk) return answer(403, { kind: "alert", key: "formExpired" });
  // The token stays valid for this form's retries (a wrong password keeps the same cookie).
  form.csrfToken = cookieToken;

  const fields = LoginFields.safeParse({
    email: await formField(c, "email"),
    password: await formField(c, "password"),
  });
  if (!fields.success) return answer(400, { kind: "alert", key: "wrongCredentials" });
  form.email = fields.data.email;

  const settings = loginSettings(c.env);
  const outcome = await passwordLogin(c.env.DB, fields.data.email, fields.data.password, settings);
  if (outcome.kind === "wrong") return answer(401, { kind: "alert", key: "wrongCredentials" });
  if (outcome.kind === "locked") {
    return answer(429, { kind: "alert", key: "lockedOut" }, { "retry-after": String(outcome.retryAfterS) });
  }
  // A new token on every login (no fixation); whatever session the browser had before ends.
  const previous = sessionCookie(c);
  if (previous) await revokeSession(c.env.DB, previous);
  const res = new Response(null, { status: 303, headers: { location: form.next ?? "/board" } });
  return withCookies(res, [sessionSetCookie(outcome.token), loginCsrfClearCookie()]);
});

/**
 * Ends the session and clears the cookie. With a live session the CSRF token is required (a
 * forged logout is refused); without one there is nothing to end, and the cookie is cleared.
 */
boardAuthRoutes.post("/logout", async (c) => {
  const token = sessionCookie(c);
  const lang = requestLanguage(c);
  const handler = token ? await sessionHandler(c.env.DB, token, loginSettings(c.env).lifetime) : null;
  if (handler) {
    const presented = c.req.header("x-csrf-token") ?? (await formField(c, "_csrf"));
    if (!fromThisSite(c) || !presented || !timingSafeEqual(presented, handler.csrfToken)) {
      return authMessagePage(lang, 403, "forbiddenTitle", "forbiddenText", `/board/login?lang=${lang}`);
    }
    await revokeSession(c.env.DB, token!);
  }
  const res = new Response(null, { status: 303, headers: { location: "/board/login?signed-out" } });
  return withCookies(res, [sessionClearCookie()]);
});

/**
 * Login posts per client address (BOARD_LOGIN_RATE_LIMITER): the lockout counts per e-mail, this
 * slows one address trying a few passwords on many e-mails. Without CF-Connecting-IP (tests) not counted.
 */
async function withinAddressLimit(c: Context<BoardEnv>): Promise<boolean> {
  const address = c.req.header("cf-connecting-ip");
  if (!address) return true;
  try {
    await enforceRateLimit(c.env.BOARD_LOGIN_RATE_LIMITER, "board login address", address, c.req.raw);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.httpStatus === 429) return false;
    throw err;
  }
}

function loginForm(c: Context<BoardEnv>, csrfToken: string): LoginForm {
  return { lang: requestLanguage(c), csrfToken, next: safeNext(c.req.query("next")) };
}
