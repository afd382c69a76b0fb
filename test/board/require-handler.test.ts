import { env } from "cloudflare:test";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { clock } from "../../src/lib/clock";
import type { BoardEnv } from "../../src/pages/board/handler-context";
import { requireCsrf, requireHandler } from "../../src/pages/board/require-handler";
import { BASE } from "../helpers";
import { loginAs } from "./login";

/**
 * The board's guard (requireHandler, requireCsrf) on a probe route: what every board page and form
 * relies on. Sessions come from the real login (loginAs); the probe runs with the test bindings.
 */
afterEach(() => clock.reset());

const MINUTE = 60_000;

const probe = new Hono<BoardEnv>();
probe.use("/board/*", requireHandler, requireCsrf);
probe.get("/board/probe", (c) => c.json(c.var.handler));
probe.post("/board/probe", async (c) => c.json({ done: true, note: (await c.req.parseBody()).note ?? null }));

function call(path: string, init: RequestInit = {}, bindings: Env = env as Env): Promise<Response> {
  return Promise.resolve(probe.fetch(new Request(`${BASE}${path}`, { redirect: "manual", ...init }), bindings));
}

function postForm(cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return call("/board/probe", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("without a session", () => {
  it("a GET is sent to the login page with the path and query as next (303)", async () => {
    const res = await call("/board/probe?q=SCH%2F2024%2F1&page=2");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(
      `/board/login?next=${encodeURIComponent("/board/probe?q=SCH%2F2024%2F1&page=2")}`,
    );
  });

  it("a POST gets a 401 page and does not run", async () => {
    const res = await postForm("", { note: "x" });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain('href="/board/login?lang=de"');
  });

  it("an unknown or forged session cookie counts as none", async () => {
    const res = await call("/board/probe", { headers: { cookie: "__Host-board_session=forged-token-value" } });
    expect(res.status).toBe(303);
  });

  it("a cookie without the __Host- prefix is not read", async () => {
    const who = await loginAs();
    const res = await call("/board/probe", { headers: { cookie: who.cookie.replace("__Host-", "") } });
    expect(res.status).toBe(303);
  });
});

describe("with a session", () => {
  it("sets c.var.handler: id, account, name, e-mail and the session's CSRF token", async () => {
    const who = await loginAs();
    const res = await call("/board/probe", { headers: { cookie: who.cookie } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: who.handler.id,
      accountId: who.accountId,
      name: "Test Handler",
      email: who.handler.email,
      csrfToken: who.csrfToken,
    });
  });
});

describe("idle and absolute expiry", () => {
  it("ends a session after 30 minutes without a request", async () => {
    const who = await loginAs();
    clock.advance(29 * MINUTE);
    expect((await call("/board/probe", { headers: { cookie: who.cookie } })).status).toBe(200);
    clock.advance(30 * MINUTE + 1000);
    expect((await call("/board/probe", { headers: { cookie: who.cookie } })).status).toBe(303);
    // Ended for good: not revived by turning the clock back.
    clock.reset();
    expect((await call("/board/probe", { headers: { cookie: who.cookie } })).status).toBe(303);
  });

  it("keeps a session in use alive, but not past 12 hours after login", async () => {
    const who = await loginAs();
    for (let elapsed = 20; elapsed <= 700; elapsed += 20) {
      clock.advance(20 * MINUTE);
      expect((await call("/board/probe", { headers: { cookie: who.cookie } })).status).toBe(200);
    }
    // 12 hours after login, only 20 minutes after the last request.
    clock.advance(20 * MINUTE);
    expect((await call("/board/probe", { headers: { cookie: who.cookie } })).status).toBe(303);
  });

  it("the open board's own polling (x-board-background) is no activity: an unattended board still ends after 30 minutes", async () => {
    const who = await loginAs();
    const poll = { headers: { cookie: who.cookie, "x-board-background": "1" } };
    for (let elapsed = 3; elapsed <= 27; elapsed += 3) {
      clock.advance(3 * MINUTE);
      expect((await call("/board/probe", poll)).status).toBe(200);
    }
    clock.advance(3 * MINUTE + 1000);
    expect((await call("/board/probe", poll)).status).toBe(303);
  });

  it("follows BOARD_SESSION_IDLE_S and BOARD_SESSION_MAX_S", async () => {
    const short = { ...(env as Env), BOARD_SESSION_IDLE_S: "60", BOARD_SESSION_MAX_S: "120" };
    const busy = await loginAs();
    const idle = await loginAs();
    clock.advance(40_000);
    expect((await call("/board/probe", { headers: { cookie: busy.cookie } }, short)).status).toBe(200);
    clock.advance(40_000);
    expect((await call("/board/probe", { headers: { cookie: busy.cookie } }, short)).status).toBe(200);
    expect((await call("/board/probe", { headers: { cookie: idle.cookie } }, short)).status).toBe(303);
    clock.advance(41_000);
    expect((await call("/board/probe", { headers: { cookie: busy.cookie } }, short)).status).toBe(303);
  });
});

describe("CSRF on state-changing requests", () => {
  it("runs a form post carrying the session's token in _csrf", async () => {
    const who = await loginAs();
    const res = await postForm(who.cookie, { _csrf: who.csrfToken, note: "hello" });
    expect(res.status).toBe(200);
    // The route still reads the body the guard parsed.
    expect(await res.json()).toEqual({ done: true, note: "hello" });
  });

  it("runs a fetch carrying the token in x-csrf-token", async () => {
    const who = await loginAs();
    const res = await postForm(who.cookie, { note: "x" }, { "x-csrf-token": who.csrfToken });
    expect(res.status).toBe(200);
  });

  it("refuses a post without the token, with a wrong one, or with another session's (403 page)", async () => {
    const who = await loginAs();
    const other = await loginAs({ accountId: who.accountId });
    for (const fields of [
      { note: "x" },
      { _csrf: "", note: "x" },
      { _csrf: "forged", note: "x" },
      { _csrf: other.csrfToken },
    ] as Record<string, string>[]) {
      const res = await postForm(who.cookie, fields);
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain("Aktion abgelehnt");
    }
  });

  it("refuses a post whose Origin or Sec-Fetch-Site names another site, even with the right token", async () => {
    const who = await loginAs();
    const fields = { _csrf: who.csrfToken };
    expect((await postForm(who.cookie, fields, { origin: "https://evil.test" })).status).toBe(403);
    expect((await postForm(who.cookie, fields, { origin: "null", "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await postForm(who.cookie, fields, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await postForm(who.cookie, fields, { "sec-fetch-site": "same-site" })).status).toBe(403);
    const own = await postForm(who.cookie, fields, { origin: BASE, "sec-fetch-site": "same-origin" });
    expect(own.status).toBe(200);
  });

  it("accepts Origin: null from our own page (what browsers send under Referrer-Policy: no-referrer)", async () => {
    const who = await loginAs();
    const res = await postForm(
      who.cookie,
      { _csrf: who.csrfToken },
      { origin: "null", "sec-fetch-site": "same-origin" },
    );
    expect(res.status).toBe(200);
  });
});
