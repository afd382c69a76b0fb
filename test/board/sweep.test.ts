import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { throttleKey } from "../../src/board/auth/throttle";
import { sha256Hex } from "../../src/lib/crypto";
import { clock } from "../../src/lib/clock";
import { runCron } from "../support/cron";
import { loginAs, newHandlerIdentity, submitLogin } from "./login";

/** The cron sweep of board login state (docs/board.md "Login and sessions"). */
afterEach(() => clock.reset());

const MINUTE = 60_000;

async function sessionRows(cookie: string): Promise<number> {
  const hash = await sha256Hex(cookie.split("=")[1]);
  const row = await env.DB.prepare("SELECT count(*) AS n FROM handler_sessions WHERE token_hash = ?")
    .bind(hash)
    .first<{ n: number }>();
  return row!.n;
}

async function throttleRows(email: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM login_throttle WHERE key_hash = ?")
    .bind(await throttleKey(email))
    .first<{ n: number }>();
  return row!.n;
}

describe("the cron sweep of board logins", () => {
  it("deletes sessions idle too long and keeps live ones", async () => {
    const idle = await loginAs();
    clock.advance(20 * MINUTE);
    const live = await loginAs();
    clock.advance(11 * MINUTE);
    await runCron();
    expect(await sessionRows(idle.cookie)).toBe(0);
    expect(await sessionRows(live.cookie)).toBe(1);
  });

  it("forgets failed logins a day after the last one, keeps recent ones", async () => {
    const forgotten = newHandlerIdentity().email;
    await submitLogin(forgotten, "wrong");
    clock.advance(24 * 60 * MINUTE + MINUTE);
    const recent = newHandlerIdentity().email;
    await submitLogin(recent, "wrong");
    await runCron();
    expect(await throttleRows(forgotten)).toBe(0);
    expect(await throttleRows(recent)).toBe(1);
  });
});
