import { describe, expect, it, beforeAll, vi } from "vitest";
import { createAccount } from "../helpers";
import { samples, zip } from "./fixtures";
import { postScanner, scanCase } from "./http";

// Requests run every registered detector (model cold starts included) on a shared machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "Scanner JSON" }));
});

interface ScanBody {
  suspicion_level: string;
  Files: Record<
    string,
    {
      suspicion_level: string;
      type: string;
      mimeType: string;
      sha256: string | null;
      size: number;
      findings: { code: string; level: string; title: string }[];
      attachments: string[];
      metadata: Record<string, unknown>;
    }
  >;
  caseNumber: string;
  sessionId: string;
  modelVersions: Record<string, string>;
  tokensConsumed: number;
  etag: null;
  pdfEditingToolsBlacklist: null;
  attachments?: Record<string, { name: string; contentType: string; data: string }[]>;
}

describe("POST /v2/scanner analyses every file of a direct upload (spec 4.4, 2.6, DESIGN §18)", () => {
  it("returns per-file results, overall level, tokens, model versions and base64 thumbnails", async () => {
    const caseNumber = scanCase();
    const archive = zip({
      "front.jpg": samples.canon,
      "docs/invoice.pdf": samples.pdf,
      "broken.jpg": samples.corruptJpeg,
      "notes.txt": new TextEncoder().encode("hi"),
    });
    const res = await postScanner({
      apiKey,
      caseNumber,
      zip: archive,
      headers: { accept: "application/json", language: "en" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = await res.json<ScanBody>();
    expect(body.caseNumber).toBe(caseNumber);
    expect(body.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.etag).toBeNull();
    expect(body.pdfEditingToolsBlacklist).toBeNull();
    expect(Object.keys(body.Files).sort()).toEqual(
      expect.arrayContaining(["broken.jpg", "docs/invoice.pdf", "front.jpg", "notes.txt"]),
    );
    const front = body.Files["front.jpg"];
    expect(front).toMatchObject({ type: "image", mimeType: "image/jpeg", size: samples.canon.length });
    expect(front.suspicion_level).not.toBe("-");
    expect(front.attachments).toContain("thumbnails/front.jpg.thumb.png");
    expect(body.Files["broken.jpg"].suspicion_level).toBe("-");
    expect(body.Files["broken.jpg"].findings[0].code).toMatch(/^FILE_(TRUNCATED|MALFORMED)$|^IMAGE_UNDECODABLE$/);
    expect(body.Files["notes.txt"]).toMatchObject({ suspicion_level: "-", type: "other" });
    expect(body.Files["notes.txt"].findings[0]).toMatchObject({
      code: "FILE_TYPE_UNSUPPORTED",
      title: "File type not supported",
    });
    expect(body.modelVersions).toMatchObject({ "file-type": "1.1.0", thumbnail: "1.7.0" });
    expect(body.tokensConsumed).toBeGreaterThan(0);
    const thumb = body.attachments!.thumbnails.find((a) => a.name === "front.jpg.thumb.png")!;
    const png = Uint8Array.from(atob(thumb.data), (ch) => ch.charCodeAt(0));
    expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });
});
