import { env, runInDurableObject } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gateFor } from "../../src/scanner/execution/analysis-gate";
import type { AnalysisJob } from "../../src/scanner/execution/job";
import { loadResult } from "../../src/scanner/execution/results";
import { createAccount } from "../helpers";
import { samples, zip } from "./fixtures";
import { postScanner, scanCase } from "./http";
import { addAnalyzerSet, slowAnalyzer, slowFile } from "./slow-analyzer";

// Real detectors on real files through the gate and its units, on a shared 2-core machine.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

type ScanBody = {
  suspicion_level: string;
  Files: Record<string, { suspicion_level: string; findings: { code: string }[] }>;
};

/** A different small scan for each n: photos, a PDF and a damaged JPEG in turn. */
function nthArchive(n: number): Uint8Array {
  const kinds: Record<string, Uint8Array>[] = [
    { "photo.jpg": samples.canon },
    { "photo.jpg": samples.nikon },
    { "invoice.pdf": samples.pdf },
    { "a.jpg": samples.canon, "b.jpg": samples.nikon, "damaged.jpg": samples.corruptJpeg },
  ];
  return zip(kinds[n % kinds.length]);
}

let unregister: () => void;
beforeAll(async () => {
  unregister = addAnalyzerSet("execution-test", slowAnalyzer);
  // Instantiating the models' wasm blocks the isolate for seconds once per test file: not what is under test.
  const { apiKey } = await createAccount({ name: "Execution warm-up" });
  expect(
    (
      await postScanner({
        apiKey,
        caseNumber: scanCase("WARM"),
        zip: zip({ "a.jpg": samples.canon }),
        headers: { accept: "application/json" },
      })
    ).status,
  ).toBe(200);
});
afterAll(() => unregister());

describe("scans one after another and at once all finish (DESIGN §19, default ANALYSIS_TIMEOUT_S)", () => {
  it("30 different scans in a row: every one 200 with its files", async () => {
    const { apiKey } = await createAccount({ name: "Sequential" });
    for (let n = 0; n < 30; n++) {
      const res = await postScanner({
        apiKey,
        caseNumber: scanCase("SEQ"),
        zip: nthArchive(n),
        headers: { accept: "application/json" },
      });
      expect(res.status, `scan ${n}`).toBe(200);
      const body = await res.json<ScanBody>();
      expect(Object.keys(body.Files).length).toBeGreaterThan(0);
    }
  });

  it("8 different scans at once: every one 200", async () => {
    const { apiKey } = await createAccount({ name: "Concurrent" });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        postScanner({
          apiKey,
          caseNumber: scanCase("PAR"),
          zip: nthArchive(n),
          headers: { accept: "application/json" },
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
  });
});

describe("a file whose analysis hangs is `-` with a timeout finding; the request still answers 200", () => {
  it("the other files keep their levels", async () => {
    const { apiKey } = await createAccount({ name: "Hang" });
    const bindings = { ...env, FILE_TIMEOUT_S: "2", ANALYZERS: "execution-test" };
    const res = await postScanner({
      apiKey,
      caseNumber: scanCase("HANG"),
      zip: zip({ "photo.jpg": samples.canon, "stuck.bin": slowFile(30_000) }),
      headers: { accept: "application/json" },
      bindings,
    });
    expect(res.status).toBe(200);
    const body = await res.json<ScanBody>();
    expect(body.Files["stuck.bin"].suspicion_level).toBe("-");
    expect(body.Files["stuck.bin"].findings.map((f) => f.code)).toEqual(["FILE_ANALYSIS_TIMEOUT"]);
    expect(body.Files["photo.jpg"].suspicion_level).not.toBe("-");
    expect(body.suspicion_level).toBe(body.Files["photo.jpg"].suspicion_level);
  });
});

describe("a unit that fails is retried, then its file is `-` (the run is still delivered)", () => {
  it("a file whose staged bytes are gone fails three attempts and is reported as failed", async () => {
    const { accountId } = await createAccount({ name: "Lost" });
    const stagingPrefix = `staging/test-${crypto.randomUUID()}/`;
    await env.BUCKET.put(`${stagingPrefix}in/0`, samples.nikon);
    const job: AnalysisJob = {
      accountId,
      caseNumber: scanCase("LOST"),
      digest: crypto.randomUUID(),
      language: "en",
      issueDate: null,
      stagingPrefix,
      analyzers: "all",
      items: [
        {
          ok: true,
          file: {
            name: "ok.jpg",
            key: `${stagingPrefix}in/0`,
            kind: "jpeg",
            mimeType: "image/jpeg",
            sha256: "a",
            size: samples.nikon.length,
          },
        },
        {
          ok: true,
          file: {
            name: "gone.jpg",
            key: `${stagingPrefix}in/missing`,
            kind: "jpeg",
            mimeType: "image/jpeg",
            sha256: "b",
            size: 10,
          },
        },
      ],
    };
    const outcome = await gateFor(env, job.digest).request(job, {
      timeoutS: 120,
      fileTimeoutS: 60,
      concurrency: 2,
      resultCache: false,
    });
    expect(outcome.kind).toBe("result");
    const stored = await loadResult(env.BUCKET, (outcome as { resultKey: string }).resultKey);
    expect(stored!.Files["gone.jpg"].findings).toEqual([
      expect.objectContaining({ code: "FILE_ANALYSIS_FAILED", level: "-", evidence: { attempts: 3 } }),
    ]);
    expect(stored!.Files["ok.jpg"].suspicion_level).not.toBe("-");
    // Staged inputs and unit outputs are removed once the run has ended.
    expect((await env.BUCKET.list({ prefix: stagingPrefix })).objects).toHaveLength(0);
  });
});

describe("a run whose deadline alarm is lost is looked after by the next identical request", () => {
  it("answers 202 and sets the alarm again, so the run cannot stay 'running' forever", async () => {
    const { accountId, apiKey } = await createAccount({ name: "Lost alarm" });
    const caseNumber = scanCase("ALARM");
    const archive = zip({ "photo.jpg": samples.nikon, "slow.bin": slowFile(8_000) });
    const bindings = { ...env, ANALYSIS_TIMEOUT_S: "1", ANALYZERS: "execution-test" };
    expect(
      (await postScanner({ apiKey, caseNumber, zip: archive, headers: { accept: "application/json" }, bindings }))
        .status,
    ).toBe(504);
    const row = await env.DB.prepare("SELECT digest FROM analyses WHERE account_id = ?")
      .bind(accountId)
      .first<{ digest: string }>();
    const gate = gateFor(env, row!.digest);
    await runInDurableObject(gate, (_instance, state) => state.storage.deleteAlarm());
    expect(
      (await postScanner({ apiKey, caseNumber, zip: archive, headers: { accept: "application/json" }, bindings }))
        .status,
    ).toBe(202);
    expect(await runInDurableObject(gate, (_instance, state) => state.storage.getAlarm())).not.toBeNull();
  });
});
