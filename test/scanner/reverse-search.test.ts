import { env, SELF } from "cloudflare:test";
import { crop, PhotonImage, resize, SamplingFilter } from "@cf-wasm/photon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import leuvenA from "../../../shared/data/photos/opencv-doc/leuvenA.jpg?inline";
import leuvenB from "../../../shared/data/photos/opencv-doc/leuvenB.jpg?inline";
import { sweepImageHashes } from "../../src/cron/sweep-image-hashes";
import { clock } from "../../src/lib/clock";
import { analyzerSets } from "../../src/scanner/analysis/analyzer-sets";
import { fileTypeAnalyzer } from "../../src/scanner/forensics/file-type";
import { thumbnailAnalyzer } from "../../src/scanner/forensics/thumbnail";
import type { Finding } from "../../src/scanner/types";
import { ADMIN, BASE, createAccount, postJson } from "../helpers";
import { bytesOf, sendShot } from "../capture-page/support";
import { zip } from "./fixtures";
import { postScanner, scanCase } from "./http";

/** Only what reverse search needs (the type gate and the decoding thumbnail detector): fast. */
const bindings = { ...env, ANALYZERS: "reverse-search-test" };
let unregister: () => void;
beforeAll(() => {
  unregister = analyzerSets.add("reverse-search-test", async () => [fileTypeAnalyzer, thumbnailAnalyzer]);
});
afterAll(() => unregister());

const original = bytesOf(leuvenA);
const sameSceneOtherShot = bytesOf(leuvenB);

/** The photo cropped by 5 % of width and height (centred), resized to 60 % and recompressed at quality 70. */
function reworked(bytes: Uint8Array): Uint8Array {
  const image = PhotonImage.new_from_byteslice(bytes);
  const w = image.get_width();
  const h = image.get_height();
  const cropped = crop(
    image,
    Math.round(w * 0.025),
    Math.round(h * 0.025),
    Math.round(w * 0.975),
    Math.round(h * 0.975),
  );
  const small = resize(
    cropped,
    Math.round(cropped.get_width() * 0.6),
    Math.round(cropped.get_height() * 0.6),
    SamplingFilter.Lanczos3,
  );
  try {
    return small.get_bytes_jpeg(70);
  } finally {
    image.free();
    cropped.free();
    small.free();
  }
}

interface ScanBody {
  Files: Record<string, { suspicion_level: string; findings: Finding[]; attachments: string[] }>;
  attachments: Record<string, { name: string; contentType: string; data: string }[]>;
}

async function scan(apiKey: string, caseNumber: string, files: Record<string, Uint8Array>): Promise<ScanBody> {
  const res = await postScanner({
    apiKey,
    caseNumber,
    zip: zip(files),
    headers: { accept: "application/json", language: "en" },
    bindings,
  });
  expect(res.status).toBe(200);
  return res.json<ScanBody>();
}

const matchOf = (body: ScanBody, file: string) =>
  body.Files[file].findings.find((f) => f.code === "REVERSE_SEARCH_MATCH");

describe("reverse search: the same photo in a later case of the account is found", () => {
  it("finds the resized, recompressed and 5 % cropped copy, not another shot of the same scene", async () => {
    const { apiKey } = await createAccount();
    const first = scanCase("RS1");
    const firstBody = await scan(apiKey, first, { "damage.jpg": original });
    expect(matchOf(firstBody, "damage.jpg")).toBeUndefined();

    const later = await scan(apiKey, scanCase("RS2"), {
      "copy.jpg": reworked(original),
      "other.jpg": sameSceneOtherShot,
    });
    const match = matchOf(later, "copy.jpg");
    expect(match?.level).toBe("Red");
    expect(match?.explanation).toContain(`in case ${first} on ${new Date().toISOString().slice(0, 10)}`);
    expect(match?.explanation).toMatch(/Hamming distance \d+ of 64 bits/);
    const [entry] = (match?.evidence.matches ?? []) as { caseNumber: string; file: string; dctDistance: number }[];
    expect(entry).toMatchObject({ caseNumber: first, file: "damage.jpg" });
    expect(entry.dctDistance).toBeLessThanOrEqual(16);
    expect(later.Files["copy.jpg"].suspicion_level).toBe("Red");
    expect(matchOf(later, "other.jpg")).toBeUndefined();

    const downloads = later.attachments.downloads ?? [];
    const report = downloads.find((a) => a.name === "reverse_search.json");
    const parsed = JSON.parse(atob(report?.data ?? "")) as { report: { file: string; matches: unknown[] }[] };
    expect(parsed.report.map((r) => r.file)).toEqual(["copy.jpg"]);
    const sheet = downloads.find((a) => a.name === "reverse_search_copy.jpg.png");
    expect(sheet?.contentType).toBe("image/png");
    expect(later.Files["copy.jpg"].attachments).toEqual(
      expect.arrayContaining(["downloads/reverse_search_copy.jpg.png", "downloads/reverse_search.json"]),
    );

    // The default response mode carries the same report as the bundle of spec 4.4.
    const multipart = await postScanner({
      apiKey,
      caseNumber: scanCase("RS3"),
      zip: zip({ "copy.jpg": reworked(original) }),
      bindings,
    });
    const parts = new TextDecoder().decode(await multipart.arrayBuffer());
    expect(parts).toContain('filename="reverse_search_downloads.zip"');
  });
});

describe("reverse search: never across accounts", () => {
  it("does not find another account's photo", async () => {
    const other = await createAccount();
    await scan(other.apiKey, scanCase("RSO"), { "theirs.jpg": original });
    const mine = await createAccount();
    const body = await scan(mine.apiKey, scanCase("RSM"), { "mine.jpg": reworked(original) });
    expect(matchOf(body, "mine.jpg")).toBeUndefined();
    expect(body.attachments.downloads).toBeUndefined();
  });
});

describe("reverse search: capture photos are compared only where the account turns it on", () => {
  it("finds a live capture photo only with reverseSearchCapturePhotos on", async () => {
    const { accountId, apiKey } = await createAccount();
    const caseNumber = scanCase("RSC");
    const created = await postJson("/capture/link", { caseNumber, scenes: [] }, { "x-api-key": apiKey });
    expect(created.status).toBe(201);
    const token = (await created.json<{ captureLink: string }>()).captureLink.split("/c/")[1];
    const shot = await sendShot(token, original, { width: 751, height: 563 }, { scenePosition: null });
    expect(shot.status).toBe(201);

    const off = await scan(apiKey, scanCase("RSX"), { "claim.jpg": reworked(original) });
    expect(matchOf(off, "claim.jpg")).toBeUndefined();

    const patch = await SELF.fetch(`${BASE}/admin/accounts/${accountId}`, {
      method: "PATCH",
      headers: ADMIN,
      body: JSON.stringify({ features: { reverseSearchCapturePhotos: true } }),
    });
    expect(patch.status).toBe(200);
    const on = await scan(apiKey, scanCase("RSY"), { "claim.jpg": reworked(original) });
    const match = matchOf(on, "claim.jpg");
    expect(match?.explanation).toContain(`as a live capture photo in case ${caseNumber}`);
    const [earliest] = (match?.evidence.matches ?? []) as { source: string; caseNumber: string }[];
    expect(earliest).toMatchObject({ source: "capture", caseNumber });
  });
});

describe("reverse search: hashes are deleted after the account's hashRetentionDays", () => {
  it("keeps a picture for the retention period, then forgets it and its small PNG", async () => {
    const { accountId, apiKey } = await createAccount({ hashRetentionDays: 2 });
    const first = scanCase("RSR");
    await scan(apiKey, first, { "old.jpg": original });
    const rows = () =>
      env.DB.prepare("SELECT thumb_key FROM image_hashes WHERE account_id = ?1")
        .bind(accountId)
        .all<{ thumb_key: string }>();
    const [{ thumb_key }] = (await rows()).results;
    expect(await env.BUCKET.head(thumb_key)).not.toBeNull();
    try {
      clock.advance(86_400_000);
      await sweepImageHashes(env);
      expect((await rows()).results).toHaveLength(1);
      clock.advance(86_400_000 + 60_000);
      await sweepImageHashes(env);
      expect((await rows()).results).toHaveLength(0);
      expect(await env.BUCKET.head(thumb_key)).toBeNull();
    } finally {
      clock.reset();
    }
    const later = await scan(apiKey, scanCase("RSR"), { "copy.jpg": reworked(original) });
    expect(matchOf(later, "copy.jpg")).toBeUndefined();
  });
});
