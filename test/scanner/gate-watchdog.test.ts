import { createExecutionContext, env, runDurableObjectAlarm, waitOnExecutionContext } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { gateFor } from "../../src/scanner/analysis-gate";
import { BASE, createAccount } from "../helpers";
import { samples, zip } from "./fixtures";
import { scanCase } from "./http";
import { registerFirst, slowAnalyzer, slowFile } from "./slow-analyzer";

// Requests run every registered detector (model cold starts included) on a shared machine.
vi.setConfig({ testTimeout: 180_000 });

const shortEnv = { ...env, ANALYSIS_TIMEOUT_S: "1" };

async function scan(apiKey: string, caseNumber: string, archive: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.append("file", new File([archive], "claim.zip", { type: "application/zip" }));
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${BASE}/v2/scanner`, { method: "POST", headers: { "x-api-key": apiKey, caseNumber, accept: "application/json" }, body: form }), shortEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function runs(accountId: string, caseNumber: string) {
  const { results } = await env.DB.prepare("SELECT id, digest, status FROM analyses WHERE account_id = ? AND case_number = ? ORDER BY created_at").bind(accountId, caseNumber).all<{ id: string; digest: string; status: string }>();
  return results;
}

let unregister: () => void;
beforeAll(() => {
  unregister = registerFirst(slowAnalyzer);
});
afterAll(() => unregister());

describe("the gate's watchdog gives up a run that does not finish", () => {
  it("marks it failed, starts afresh on the next identical request, and ignores the lost run's late result", async () => {
    const { accountId, apiKey } = await createAccount({ name: "Watchdog" });
    const caseNumber = scanCase("WD");
    const archive = zip({ "a.jpg": samples.nikon, "slow.bin": slowFile(4000) });
    expect((await scan(apiKey, caseNumber, archive)).status).toBe(504);
    const [first] = await runs(accountId, caseNumber);
    expect(first.status).toBe("running");

    // The alarm set while running is the watchdog; fire it now instead of after 15 minutes.
    expect(await runDurableObjectAlarm(gateFor(env, first.digest))).toBe(true);
    expect((await runs(accountId, caseNumber))[0].status).toBe("failed");

    expect((await scan(apiKey, caseNumber, archive)).status).toBe(504);
    const [, second] = await runs(accountId, caseNumber);
    expect(second.status).toBe("running");

    // The queue side of the first run no longer gets its job (claim → null) or is ignored on finish.
    expect(await gateFor(env, first.digest).claim(first.id)).toBeNull();
    await gateFor(env, first.digest).finish(first.id, { resultKey: "results/none/result.json", tokens: 1, suspicionLevel: "Green" });
    const after = await runs(accountId, caseNumber);
    expect(after.map((r) => r.status)).toEqual(["failed", "running"]);
  });
});
