import type { AccountRecord } from "../../accounts/service";
import { hasFeature } from "../../accounts/service";
import { limits, type Env } from "../../env";
import { ApiError } from "../../lib/problem";
import { newId } from "../../lib/ids";
import { deletePrefix } from "../../lib/r2";
import { deliver, type ResponseMode } from "../response/deliver-result";
import { analyzerSets } from "../analysis/analyzer-sets";
import { requestDigest } from "./digest";
import { gateFor, type GateOutcome } from "./analysis-gate";
import type { AnalysisJob } from "./job";
import { stageArchive } from "./staging";
import { memorySource, r2Source, type ZipSource } from "../intake";
import { loadResult } from "./results";
import type { Language } from "../types";
import { claimUpload, consumeUpload, resolveUpload, uploadConsumed } from "../transfer/uploads";

/** The validated headers of POST /v2/scanner. */
export interface ScanRequest {
  caseNumber: string;
  issueDate: Date | null;
  language: Language;
  contactEmail: string | null;
  mode: ResponseMode;
}

/** The archive: a direct upload (already bounded in memory) or a presigned upload in R2. */
export type ScanInput = { kind: "direct"; bytes: Uint8Array } | { kind: "presigned"; storageKey: string };

/**
 * POST /v2/scanner after parsing: the intake runs once here — the archive is validated (422s), each
 * file staged in R2 for its unit of work and hashed for the request digest — then the digest's gate
 * takes over, and its outcome becomes the response of spec 4.4 / §7.
 */
export async function scan(
  env: Env,
  account: AccountRecord,
  request: ScanRequest,
  input: ScanInput,
): Promise<Response> {
  const settings = limits(env);
  analyzerSets.pick(env.ANALYZERS);
  const { source, presignedKey } = await openInput(env, account, request, input);
  const stagingPrefix = `staging/${newId()}/`;
  let adopted = false;
  try {
    const { manifest, items } = await stageArchive(env.BUCKET, source, stagingPrefix);
    const issueDate = request.issueDate?.toISOString() ?? null;
    const digest = await requestDigest({
      accountId: account.id,
      caseNumber: request.caseNumber,
      issueDate,
      language: request.language,
      fileHashes: manifest.map((m) => m.sha256 ?? `unreadable:${m.size}`),
    });
    if (presignedKey) await claimUpload(env, presignedKey, digest);
    const job: AnalysisJob = {
      accountId: account.id,
      caseNumber: request.caseNumber,
      digest,
      language: request.language,
      issueDate,
      stagingPrefix,
      items,
      analyzers: env.ANALYZERS,
    };
    const outcome = await gateFor(env, digest).request(job, {
      timeoutS: settings.analysisTimeoutS,
      fileTimeoutS: settings.fileTimeoutS,
      concurrency: settings.analysisUnitConcurrency,
      resultCache: hasFeature(account, "resultCache"),
    });
    adopted = "adoptedInput" in outcome && outcome.adoptedInput;
    return await respond(env, account, request, outcome, presignedKey);
  } finally {
    // Staged files belong to the run that adopted them; otherwise they are removed now.
    if (!adopted) await deletePrefix(env.BUCKET, stagingPrefix);
  }
}

async function openInput(
  env: Env,
  account: AccountRecord,
  request: ScanRequest,
  input: ScanInput,
): Promise<{ source: ZipSource; presignedKey: string | null }> {
  if (input.kind === "direct") return { source: memorySource(input.bytes), presignedKey: null };
  const upload = await resolveUpload(env, account.id, input.storageKey, request.caseNumber);
  const source = await r2Source(env.BUCKET, upload.objectKey);
  if (!source) throw new ApiError(410, "upload-consumed", "The uploaded archive is no longer stored.");
  return { source, presignedKey: input.storageKey };
}

async function respond(
  env: Env,
  account: AccountRecord,
  request: ScanRequest,
  outcome: GateOutcome,
  presignedKey: string | null,
): Promise<Response> {
  switch (outcome.kind) {
    case "result": {
      const stored = await loadResult(env.BUCKET, outcome.resultKey);
      if (!stored) throw new ApiError(500, "result-missing", "The stored result could not be read.");
      // Only one delivery spends a storage_key: a concurrent identical request that lost gets 410, uncharged.
      if (presignedKey && !(await consumeUpload(env, presignedKey))) throw uploadConsumed();
      // The first delivery's sessionId is the analysis id, the session the reports name (docs/reports.md).
      const sessionId = outcome.firstDelivery ? outcome.analysisId : newId();
      return deliver(env, account, stored, { mode: request.mode, sessionId, language: request.language });
    }
    case "timeout":
      throw new ApiError(
        504,
        "analysis-timeout",
        "The analysis takes longer than the request may wait; it goes on. Send the identical request again in about 30 seconds.",
        {
          headers: { "Retry-After": "30" },
        },
      );
    case "busy":
      throw new ApiError(
        409,
        "analysis-in-progress",
        "The same files for this case number are being analysed for a caller who is still waiting. Do not retry; wait for that answer.",
      );
    case "running":
      return Response.json(
        {
          status: "running",
          caseNumber: request.caseNumber,
          detail: "The analysis is still running. Send the identical request again after Retry-After seconds.",
          retryAfter: outcome.retryAfterS,
        },
        { status: 202, headers: { "Retry-After": String(outcome.retryAfterS) } },
      );
    case "failed":
      throw new ApiError(
        500,
        "analysis-failed",
        "The analysis failed. Send the request again; quote the request id if it keeps failing.",
      );
  }
}
