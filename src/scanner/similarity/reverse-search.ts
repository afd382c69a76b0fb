/**
 * Reverse search across claims (DESIGN §21, docs/reverse-search.md): once the units of a run have
 * reported, every decoded picture of the request is looked up among the account's earlier pictures
 * (other case numbers; capture photos only where the account turns that on). A match becomes a
 * `REVERSE_SEARCH_MATCH` finding on the file and a match report in the `downloads` category
 * (`reverse_search.json` and one side-by-side PNG per matched file). Then the request's pictures
 * are stored for later lookups. Never across accounts: every query is bound to the run's account.
 */
import { findAccount } from "../../accounts/repository";
import { hasFeature } from "../../accounts/service";
import { getDb } from "../../db/client";
import type { Env } from "../../env";
import { highestLevel } from "../finding";
import type { FileResult, PipelineResult } from "../analysis/file-result";
import { attachmentKeyPrefix, type StoredAttachment, uniqueAttachmentName } from "../execution/results";
import type { AnalysisJob } from "../execution/job";
import { logAnalysis } from "../execution/log";
import { hashesOf } from "./hash-metadata";
import { decodeSmall, type Rgba, sideBySide, smallPng } from "./small-picture";
import { findMatches, type HashMatch, type HashRecord, type HashSource, storeHashes } from "./store";
import { matchEvidence, reverseSearchMatch } from "./texts";
import { toHex } from "./perceptual-hash";

type Gathered = PipelineResult & { attachments: StoredAttachment[] };

/** Earlier pictures shown next to the file in its side-by-side PNG. */
const SHOWN_MATCHES = 3;

/** Looks the run's pictures up, adds findings and the match report, stores the pictures. Never throws. */
export async function reverseSearch(env: Env, job: AnalysisJob, analysisId: string, gathered: Gathered): Promise<void> {
  try {
    await search(env, job, analysisId, gathered);
  } catch (err) {
    logAnalysis("reverse-search-failed", { analysisId, error: String(err) });
  }
}

async function search(env: Env, job: AnalysisJob, analysisId: string, gathered: Gathered): Promise<void> {
  const pictures = Object.entries(gathered.Files).flatMap(([name, file]) => {
    const hashes = hashesOf(file.metadata);
    return hashes && file.sha256 ? [{ name, file, hashes, sha256: file.sha256 }] : [];
  });
  if (pictures.length === 0) return;
  const account = await findAccount(getDb(env.DB), job.accountId);
  if (!account) return;
  const sources: HashSource[] = hasFeature(account, "reverseSearchCapturePhotos")
    ? ["scanner", "capture"]
    : ["scanner"];
  const found = await findMatches(
    env.DB,
    pictures.map((p) => ({ accountId: job.accountId, caseNumber: job.caseNumber, hashes: p.hashes, sources })),
  );
  const thumbnails = new Map<string, Rgba | null>();
  const thumbnailOf = async (name: string, file: FileResult) => {
    if (!thumbnails.has(name)) thumbnails.set(name, await loadThumbnail(env.BUCKET, gathered.attachments, file));
    return thumbnails.get(name) ?? null;
  };

  const taken = new Set(gathered.attachments.map((a) => `${a.category}/${a.name}`));
  const keyPrefix = `${attachmentKeyPrefix(analysisId, "reverse-search")}`;
  const report: Record<string, unknown>[] = [];
  for (const [i, picture] of pictures.entries()) {
    const matches = found[i];
    if (matches.length === 0) continue;
    const { file } = picture;
    file.findings.push(reverseSearchMatch(job.language, picture.sha256, matches));
    file.suspicion_level = highestLevel([file.suspicion_level, "Red"]);
    const sheet = await sheetOf(env.BUCKET, await thumbnailOf(picture.name, file), matches);
    if (sheet) {
      const stored = await putAttachment(env.BUCKET, gathered.attachments, taken, keyPrefix, {
        name: `reverse_search_${picture.name}.png`,
        contentType: "image/png",
        bytes: sheet,
      });
      file.attachments.push(`downloads/${stored.name}`);
    }
    report.push({
      file: picture.name,
      sha256: picture.sha256,
      dctHash: toHex(picture.hashes.dct),
      blockMeanHash: toHex(picture.hashes.blockMean),
      matches: matches.map((m) => matchEvidence(m, picture.sha256)),
    });
  }
  if (report.length > 0) {
    const json = { caseNumber: job.caseNumber, language: job.language, searched: pictures.length, sources, report };
    const stored = await putAttachment(env.BUCKET, gathered.attachments, taken, keyPrefix, {
      name: "reverse_search.json",
      contentType: "application/json",
      bytes: new TextEncoder().encode(JSON.stringify(json, null, 2)),
    });
    for (const entry of report) gathered.Files[entry.file as string].attachments.push(`downloads/${stored.name}`);
    gathered.suspicion_level = highestLevel(Object.values(gathered.Files).map((f) => f.suspicion_level));
    logAnalysis("reverse-search", { analysisId, pictures: pictures.length, matched: report.length });
  }

  const records: HashRecord[] = [];
  for (const p of pictures) {
    const thumb = await thumbnailOf(p.name, p.file);
    records.push({
      accountId: job.accountId,
      source: "scanner",
      caseNumber: job.caseNumber,
      ref: p.name,
      sha256: p.sha256,
      hashes: p.hashes,
      thumbnail: thumb ? smallPng(thumb) : null,
    });
  }
  await storeHashes(env.DB, env.BUCKET, records);
}

/** The file's own thumbnail (thumbnail detector), decoded. */
async function loadThumbnail(bucket: R2Bucket, attachments: StoredAttachment[], file: FileResult) {
  const name = file.attachments.find((a) => a.startsWith("thumbnails/"))?.slice("thumbnails/".length);
  const stored = attachments.find((a) => a.category === "thumbnails" && a.name === name);
  const object = stored ? await bucket.get(stored.key) : null;
  return object ? decodeSmall(new Uint8Array(await object.arrayBuffer())) : null;
}

/** This picture, then the earliest matches, side by side (mirrored matches shown as stored). */
async function sheetOf(bucket: R2Bucket, own: Rgba | null, matches: HashMatch[]): Promise<Uint8Array | null> {
  if (!own) return null;
  const earlier: Rgba[] = [];
  for (const m of matches.slice(0, SHOWN_MATCHES)) {
    const object = m.thumbKey ? await bucket.get(m.thumbKey) : null;
    const picture = object ? decodeSmall(new Uint8Array(await object.arrayBuffer())) : null;
    if (picture) earlier.push(picture);
  }
  return earlier.length > 0 ? sideBySide([own, ...earlier]) : null;
}

async function putAttachment(
  bucket: R2Bucket,
  into: StoredAttachment[],
  taken: Set<string>,
  keyPrefix: string,
  a: { name: string; contentType: string; bytes: Uint8Array },
): Promise<StoredAttachment> {
  const name = uniqueAttachmentName(taken, "downloads", a.name);
  const key = `${keyPrefix}${into.length}`;
  await bucket.put(key, a.bytes, { httpMetadata: { contentType: a.contentType } });
  const stored: StoredAttachment = {
    category: "downloads",
    name,
    contentType: a.contentType,
    size: a.bytes.length,
    key,
  };
  into.push(stored);
  return stored;
}
