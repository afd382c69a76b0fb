import type { AccountRecord } from "../../accounts/service";
import { hasFeature } from "../../accounts/service";
import { getDb } from "../../db/client";
import { limits, type Env } from "../../env";
import { clock } from "../../lib/clock";
import { attachmentsZip, categoryBundles } from "../attachments/bundles";
import { base64Size, fitToCap } from "../attachments/cap";
import { loadAttachments, toBase64 } from "../attachments/load";
import { multipartMixed } from "../attachments/multipart";
import { publishDownload } from "../transfer/downloads";
import type { StoredResult } from "../execution/results";
import { insertUsage } from "../repository";
import type { Language } from "../types";

/** How attachments travel (spec 4.4 response modes). */
export type ResponseMode = "multipart" | "json";

/** The JSON of spec 2.6 without `attachments`; add-ons only when the account has them. */
export function resultBody(
  stored: StoredResult,
  account: AccountRecord,
  sessionId: string,
  downloadUrl: string | null,
) {
  return {
    suspicion_level: stored.suspicion_level,
    Files: stored.Files,
    caseNumber: stored.caseNumber,
    sessionId,
    modelVersions: stored.modelVersions,
    tokensConsumed: stored.tokensConsumed,
    // Computed by the gate (addons.ts); null for a result stored before they existed.
    ...(hasFeature(account, "crossFileAnalyses") && {
      cross_file_analyses: stored.caseAnalyses?.crossFileAnalyses ?? null,
    }),
    ...(hasFeature(account, "agenticRecommendation") && {
      agenticRecommendation: stored.caseAnalyses?.agenticRecommendation ?? null,
    }),
    ...(hasFeature(account, "presignedDownload") && { attachmentDownloadUrl: downloadUrl }),
    // Spec 2.6: "Empty when no report was generated" (the reports unit failed or timed out).
    ...(hasFeature(account, "pdfReportMapping") && { pdfReportMapping: stored.pdfReportMapping ?? {} }),
    etag: null,
    pdfEditingToolsBlacklist: null,
  };
}

/**
 * The response that delivers a finished result, and its usage ledger row (spec 4.4 rule 3:
 * only a delivered result is charged). Presigned download takes precedence over Accept.
 */
export async function deliver(
  env: Env,
  account: AccountRecord,
  stored: StoredResult,
  opts: { mode: ResponseMode; sessionId: string; language: Language },
): Promise<Response> {
  const response = hasFeature(account, "presignedDownload")
    ? await presignedResponse(env, account, stored, opts)
    : await inlineResponse(env, account, stored, opts);
  await insertUsage(getDb(env.DB), {
    id: opts.sessionId,
    accountId: account.id,
    analysisId: stored.analysisId,
    tokens: stored.tokensConsumed,
    deliveredAt: clock.now(),
  });
  return response;
}

async function presignedResponse(
  env: Env,
  account: AccountRecord,
  stored: StoredResult,
  opts: { sessionId: string; language: Language },
) {
  let url: string | null = null;
  if (stored.attachments.length > 0) {
    const bundles = categoryBundles(await loadAttachments(env.BUCKET, stored.attachments));
    url = await publishDownload(env, account.id, stored.analysisId, attachmentsZip(bundles));
  }
  return Response.json(resultBody(stored, account, opts.sessionId, url));
}

async function inlineResponse(
  env: Env,
  account: AccountRecord,
  stored: StoredResult,
  opts: { mode: ResponseMode; sessionId: string; language: Language },
) {
  const body = resultBody(stored, account, opts.sessionId, null);
  const json = JSON.stringify(body);
  const cap = limits(env).inlinePayloadCapBytes;
  const fit = fitToCap(
    stored.attachments,
    new TextEncoder().encode(json).length + 1024,
    cap,
    opts.mode === "json" ? base64Size : (size) => size,
  );
  const attachments = await loadAttachments(env.BUCKET, fit.kept);
  const headers: Record<string, string> = fit.truncated ? { "X-Payload-Truncated": "true" } : {};
  if (opts.mode === "json") {
    const grouped: Record<string, { name: string; contentType: string; size: number; data: string }[]> = {};
    for (const a of attachments)
      (grouped[a.category] ??= []).push({
        name: a.name,
        contentType: a.contentType,
        size: a.bytes.length,
        data: toBase64(a.bytes),
      });
    return Response.json({ ...body, attachments: grouped }, { headers });
  }
  const multipart = multipartMixed(json, categoryBundles(attachments));
  return new Response(multipart.body, { headers: { ...headers, "content-type": multipart.contentType } });
}
