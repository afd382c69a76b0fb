import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import wranglerToml from "../wrangler.toml?raw";
import { ADMIN, BASE, createAccount, postJson, uniqueCaseNumber } from "./helpers";

// Issue 19, item 8. This file runs in its own vitest project ("rate-limits") whose limits are tiny
// (6 per key, 3 per capture link, vitest.config.ts); every other suite has wrangler.toml's 600 and 300.
const API_KEY_LIMIT = 6;
const TOKEN_LIMIT = 3;

/** The local limiter counts in windows aligned to the wall-clock minute: keep a burst inside one. */
async function inOneWindow(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100));
}

async function statuses(count: number, send: () => Promise<Response>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await send();
    out.push(res.status);
    await res.body?.cancel();
  }
  return out;
}

async function expectRateLimited(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  expect(res.headers.get("retry-after")).toBe("60");
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(await res.json()).toMatchObject({
    type: "urn:capture-verify:problem:rate-limited",
    status: 429,
    title: "Too many requests",
  });
}

describe("the production limits are generous: 600 requests a minute per API key, 300 per capture link", () => {
  it("wrangler.toml binds both limiters with these limits", () => {
    const binding = (name: string) =>
      wranglerToml
        .match(
          new RegExp(`name = "${name}"\\s+namespace_id = "\\d+"\\s+simple = \\{ limit = (\\d+), period = (\\d+) \\}`),
        )
        ?.slice(1);
    expect(binding("API_KEY_RATE_LIMITER")).toEqual(["600", "60"]);
    expect(binding("CAPTURE_TOKEN_RATE_LIMITER")).toEqual(["300", "60"]);
  });
});

describe("per API key: over the limit within a minute → 429 problem with Retry-After", () => {
  let apiKey: string;
  let accountId: string;
  beforeAll(async () => {
    ({ apiKey, accountId } = await createAccount({ name: "Rate limits" }));
  });

  it("the request after the limit is refused on every endpoint of the key; another key of the account is not", async () => {
    await inOneWindow();
    const status = () => SELF.fetch(`${BASE}/capture/status?ticketId=unknown`, { headers: { "x-api-key": apiKey } });
    expect(await statuses(API_KEY_LIMIT, status)).toEqual(Array(API_KEY_LIMIT).fill(404));
    await expectRateLimited(await status());
    await expectRateLimited(
      await SELF.fetch(`${BASE}/v2/getUploadUrl`, {
        method: "POST",
        headers: { "x-api-key": apiKey, caseNumber: "RATE-1" },
      }),
    );
    await expectRateLimited(
      await postJson("/capture/link", { caseNumber: uniqueCaseNumber("RL") }, { "x-api-key": apiKey }),
    );

    const other = await SELF.fetch(`${BASE}/admin/accounts/${accountId}/keys`, { method: "POST", headers: ADMIN });
    const otherKey = (await other.json<{ apiKey: string }>()).apiKey;
    expect(
      (await SELF.fetch(`${BASE}/capture/status?ticketId=unknown`, { headers: { "x-api-key": otherKey } })).status,
    ).toBe(404);
  });

  it("unknown keys are answered 401, not counted against anyone", async () => {
    const res = await SELF.fetch(`${BASE}/capture/status?ticketId=unknown`, {
      headers: { "x-api-key": "x".repeat(40) },
    });
    expect(res.status).toBe(401);
  });
});

describe("per capture link: over the limit within a minute → 429 problem with Retry-After", () => {
  it("the request after the limit is refused for the page and its JSON; another case's link is not", async () => {
    const { apiKey: pageKey } = await createAccount({ name: "Rate limits, page" });
    const link = async () => {
      const res = await postJson("/capture/link", { caseNumber: uniqueCaseNumber("RL") }, { "x-api-key": pageKey });
      return (await res.json<{ captureLink: string }>()).captureLink.split("/c/")[1];
    };
    const [token, otherToken] = [await link(), await link()];
    await inOneWindow();
    const state = () => SELF.fetch(`${BASE}/c/${token}/state`);
    expect(await statuses(TOKEN_LIMIT, state)).toEqual(Array(TOKEN_LIMIT).fill(200));
    await expectRateLimited(await state());
    await expectRateLimited(await SELF.fetch(`${BASE}/c/${token}/nonce`, { method: "POST" }));
    await expectRateLimited(await SELF.fetch(`${BASE}/c/${token}`));
    expect((await SELF.fetch(`${BASE}/c/${otherToken}/state`)).status).toBe(200);
    // Static assets are not behind a token.
    expect((await SELF.fetch(`${BASE}/c/assets/capture.css`)).status).toBe(200);
  });
});
