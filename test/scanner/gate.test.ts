import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount } from "../helpers";
import { samples, zip } from "./fixtures";
import { postScanner, scanCase } from "./http";
import { addAnalyzerSet, slowAnalyzer, slowFile } from "./slow-analyzer";

/**
 * The gate with a 3 s ANALYSIS_TIMEOUT_S and the slow analyzer in front of the real set: these
 * tests call the Worker's fetch handler with those bindings (the Worker hands them to the gate).
 */
const TIMEOUT_S = 3;
const shortEnv = { ...env, ANALYSIS_TIMEOUT_S: String(TIMEOUT_S), ANALYZERS: "gate-test" };

function scanDirect(
  apiKey: string,
  caseNumber: string,
  archive: Uint8Array,
  bindings: typeof env = shortEnv,
): Promise<Response> {
  return postScanner({ apiKey, caseNumber, zip: archive, headers: { accept: "application/json" }, bindings });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ledgerRows(accountId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM usage_ledger WHERE account_id = ?")
    .bind(accountId)
    .first<{ n: number }>();
  return row!.n;
}

async function analysesFor(accountId: string, caseNumber: string): Promise<{ status: string }[]> {
  const { results } = await env.DB.prepare(
    "SELECT status FROM analyses WHERE account_id = ? AND case_number = ? ORDER BY created_at",
  )
    .bind(accountId, caseNumber)
    .all<{ status: string }>();
  return results;
}

// Every registered detector runs on the photos (model cold starts included) on a shared machine.
vi.setConfig({ testTimeout: 240_000 });

let unregister: () => void;
beforeAll(async () => {
  unregister = addAnalyzerSet("gate-test", slowAnalyzer);
  // The first use of the models instantiates onnxruntime's wasm, which blocks the isolate for
  // seconds: do it before the timed walk-through so that its requests interleave as they would.
  const { apiKey } = await createAccount({ name: "Gate warm-up" });
  expect((await scanDirect(apiKey, scanCase("WARM"), zip({ "a.jpg": samples.canon }), env)).status).toBe(200);
});
afterAll(() => unregister());

describe("a slow analysis: 504, then 409 / 202 while it runs, then the result on repeat (DESIGN §10)", () => {
  it("walks through every gate answer and charges only the delivery", async () => {
    const { accountId, apiKey } = await createAccount({ name: "Gate", features: { resultCache: true } });
    const caseNumber = scanCase("GATE");
    const files = { "a.jpg": samples.canon, "slow.bin": slowFile(TIMEOUT_S * 1000 + 3000) };
    const first = scanDirect(apiKey, caseNumber, zip(files));
    await sleep(300);
    // The same files re-zipped in another order are the identical request.
    const reordered = zip({ "slow.bin": files["slow.bin"], "renamed.jpg": files["a.jpg"] });
    const second = await scanDirect(apiKey, caseNumber, reordered);
    expect(second.status).toBe(409);
    const firstRes = await first;
    expect(firstRes.status).toBe(504);
    expect(firstRes.headers.get("retry-after")).toBe("30");
    expect(await ledgerRows(accountId)).toBe(0);

    const third = await scanDirect(apiKey, caseNumber, reordered);
    expect(third.status).toBe(202);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);

    // Repeat as a client would until the result is there; meanwhile nobody waits, so 202.
    let done = await scanDirect(apiKey, caseNumber, zip(files));
    for (const giveUp = Date.now() + 120_000; done.status === 202 && Date.now() < giveUp; ) {
      await sleep(500);
      done = await scanDirect(apiKey, caseNumber, zip(files));
    }
    expect(done.status).toBe(200);
    const body = await done.json<{ caseNumber: string; Files: Record<string, unknown> }>();
    expect(Object.keys(body.Files).sort()).toEqual(["a.jpg", "slow.bin"]);
    expect(await ledgerRows(accountId)).toBe(1);

    // resultCache: the identical request is answered from the stored result at once and charged again.
    const cached = await scanDirect(apiKey, caseNumber, reordered);
    expect(cached.status).toBe(200);
    expect(await ledgerRows(accountId)).toBe(2);
    expect(await analysesFor(accountId, caseNumber)).toEqual([{ status: "done" }]);
  });
});

describe("identical vs different requests (DESIGN §9)", () => {
  it("a different file set under the same case number is analysed anew", async () => {
    const { accountId, apiKey } = await createAccount({ name: "Gate 2", features: { resultCache: true } });
    const caseNumber = scanCase("GATE");
    expect((await scanDirect(apiKey, caseNumber, zip({ "a.jpg": samples.canon }), env)).status).toBe(200);
    expect((await scanDirect(apiKey, caseNumber, zip({ "a.jpg": samples.nikon }), env)).status).toBe(200);
    expect(await analysesFor(accountId, caseNumber)).toEqual([{ status: "done" }, { status: "done" }]);
  });

  it("without resultCache an identical request after delivery is analysed again", async () => {
    const { accountId, apiKey } = await createAccount({ name: "Gate 3" });
    const caseNumber = scanCase("GATE");
    expect((await scanDirect(apiKey, caseNumber, zip({ "a.jpg": samples.canon }), env)).status).toBe(200);
    expect((await scanDirect(apiKey, caseNumber, zip({ "b.jpg": samples.canon }), env)).status).toBe(200);
    expect(await analysesFor(accountId, caseNumber)).toHaveLength(2);
    expect(await ledgerRows(accountId)).toBe(2);
  });
});
