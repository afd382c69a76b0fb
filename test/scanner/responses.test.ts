import { env, SELF } from "cloudflare:test";
import { unzipSync } from "fflate";
import { parseMultipartStream } from "@remix-run/multipart-parser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount } from "../helpers";
import type { Analyzer } from "../../src/scanner/types";
import { samples, zip } from "./fixtures";
import { postScanner as postWithBindings, scanCase } from "./http";
import { addAnalyzerSet } from "./slow-analyzer";

// Requests run every registered detector (model cold starts included) on a shared machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const BIG_MARKER = "BIG-ATTACHMENT:";

/**
 * A test analyzer that makes a large attachment (the bytes of a real PDF padded with a PDF
 * comment) for marker files, so the inline cap of 9 MB can be exceeded with a small upload.
 */
const bigAttachmentAnalyzer: Analyzer = {
  id: "test-big-attachment",
  version: "0.0.0",
  appliesTo: (file) => new TextDecoder().decode(file.bytes.subarray(0, BIG_MARKER.length)) === BIG_MARKER,
  async analyze(file) {
    const size = Number(new TextDecoder().decode(file.bytes.subarray(BIG_MARKER.length)));
    const bytes = new Uint8Array(size);
    bytes.set(samples.pdf);
    bytes.fill(0x25, samples.pdf.length); // "%%%…": a PDF comment after %%EOF
    return {
      assessed: false,
      findings: [],
      attachments: [{ category: "pdf_versions", name: `${file.name}.v1.pdf`, contentType: "application/pdf", bytes }],
    };
  },
};

/** Every scan of this file runs the big-attachment analyzer in front of the real set. */
const bindings = { ...env, ANALYZERS: "responses-test" };
const postScanner = (opts: Parameters<typeof postWithBindings>[0]) => postWithBindings({ ...opts, bindings });

let unregister: () => void;
let apiKey: string;
beforeAll(async () => {
  unregister = addAnalyzerSet("responses-test", bigAttachmentAnalyzer);
  ({ apiKey } = await createAccount({
    name: "Responses",
    features: { crossFileAnalyses: true, agenticRecommendation: true, pdfReportMapping: true },
  }));
});
afterAll(() => unregister());

/** Parses a multipart/mixed response with @remix-run/multipart-parser, a standard streaming multipart parser. */
async function parseMultipart(res: Response): Promise<{ headers: Record<string, string>; body: Uint8Array }[]> {
  const boundary = /boundary=([^;]+)/.exec(res.headers.get("content-type")!)![1];
  const parts: { headers: Record<string, string>; body: Uint8Array }[] = [];
  for await (const part of parseMultipartStream(res.body!, { boundary, maxFileSize: 20 * 1024 * 1024 })) {
    parts.push({
      headers: {
        "content-type": part.headers["content-type"] ?? "",
        "content-disposition": part.headers["content-disposition"] ?? "",
      },
      body: part.bytes,
    });
  }
  return parts;
}

describe("multipart/mixed: JSON first, then one ZIP per category (DESIGN §13)", () => {
  it("parses part by part; every inner ZIP opens and holds PNG thumbnails", async () => {
    const res = await postScanner({
      apiKey,
      caseNumber: scanCase(),
      zip: zip({ "a.jpg": samples.canon, "b.jpg": samples.nikon }),
    });
    expect(res.status).toBe(200);
    const parts = await parseMultipart(res);
    expect(parts[0].headers["content-type"]).toContain("application/json");
    const json = JSON.parse(new TextDecoder().decode(parts[0].body));
    expect(json.attachments).toBeUndefined();
    expect(Object.keys(json.Files)).toEqual(["a.jpg", "b.jpg"]);
    // One part per category that has attachments (other registered detectors may add heatmaps etc.).
    const names = parts.slice(1).map((p) => /filename="([^"]+)"/.exec(p.headers["content-disposition"])![1]);
    expect(names).toContain("thumbnails.zip");
    expect(new Set(names).size).toBe(names.length);
    for (const part of parts.slice(1)) {
      expect(part.headers["content-type"]).toBe("application/zip");
      expect(Object.keys(unzipSync(part.body)).length).toBeGreaterThan(0);
    }
    const inner = unzipSync(parts[names.indexOf("thumbnails.zip") + 1].body);
    expect(Object.keys(inner).sort()).toEqual(["a.jpg.thumb.png", "b.jpg.thumb.png"]);
    for (const png of Object.values(inner)) expect(Array.from(png.subarray(0, 8))).toEqual(PNG_SIGNATURE);
  });
});

describe("JSON mode: base64 attachments by category; add-ons when the account has them", () => {
  it("decodes to valid PNG and PDF files", async () => {
    const res = await postScanner({
      apiKey,
      caseNumber: scanCase(),
      zip: zip({ "a.jpg": samples.canon, "big.bin": new TextEncoder().encode(`${BIG_MARKER}200000`) }),
      headers: { accept: "application/json" },
    });
    const body = await res.json<{
      attachments: Record<string, { name: string; data: string }[]>;
      cross_file_analyses: unknown;
      agenticRecommendation: { action: string };
      pdfReportMapping: unknown;
    }>();
    const decode = (data: string) => Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    for (const [category, list] of Object.entries(body.attachments)) {
      for (const a of list) {
        const bytes = decode(a.data);
        const isPng = PNG_SIGNATURE.every((b, i) => bytes[i] === b);
        const isPdf = new TextDecoder().decode(bytes.subarray(0, 5)) === "%PDF-";
        // a.jpg was sent in this account's earlier case: reverse search adds its JSON match report.
        const isReport =
          category === "downloads" && a.name === "reverse_search.json" && !!JSON.parse(new TextDecoder().decode(bytes));
        expect(isPng || isPdf || isReport, a.name).toBe(true);
      }
    }
    expect(Array.from(decode(body.attachments.thumbnails[0].data).subarray(0, 8))).toEqual(PNG_SIGNATURE);
    expect(new TextDecoder().decode(decode(body.attachments.pdf_versions[0].data).subarray(0, 5))).toBe("%PDF-");
    expect(res.headers.get("x-payload-truncated")).toBeNull();
    expect(body.cross_file_analyses).toMatchObject({ comparedFiles: 2, identicalFiles: [], nearDuplicateImages: [] });
    expect(body.agenticRecommendation.action).toBeTypeOf("string");
    expect(Object.keys(body.pdfReportMapping as Record<string, number>)).toEqual(["a.jpg", "big.bin"]);
  });

  it("reports byte-identical files across the request", async () => {
    const res = await postScanner({
      apiKey,
      caseNumber: scanCase(),
      zip: zip({ "a.jpg": samples.canon, "copy/a-again.jpg": samples.canon }),
      headers: { accept: "application/json" },
    });
    const body = await res.json<{ cross_file_analyses: { identicalFiles: { files: string[] }[] } }>();
    expect(body.cross_file_analyses.identicalFiles[0].files.sort()).toEqual(["a.jpg", "copy/a-again.jpg"]);
  });

  it("add-ons are absent when the account does not have them", async () => {
    const { apiKey: plainKey } = await createAccount({ name: "Plain" });
    const body = await (
      await postScanner({
        apiKey: plainKey,
        caseNumber: scanCase(),
        zip: zip({ "a.jpg": samples.nikon }),
        headers: { accept: "application/json" },
      })
    ).json<Record<string, unknown>>();
    for (const key of ["cross_file_analyses", "agenticRecommendation", "pdfReportMapping", "attachmentDownloadUrl"])
      expect(key in body).toBe(false);
  });
});

describe("inline payload cap: largest attachments dropped, X-Payload-Truncated: true", () => {
  const bigArchive = () =>
    zip({
      "a.jpg": samples.canon,
      "big1.bin": new TextEncoder().encode(`${BIG_MARKER}5000000`),
      "big2.bin": new TextEncoder().encode(`${BIG_MARKER}6000000`),
    });

  it("JSON mode keeps what fits", async () => {
    const res = await postScanner({
      apiKey,
      caseNumber: scanCase(),
      zip: bigArchive(),
      headers: { accept: "application/json" },
    });
    expect(res.headers.get("x-payload-truncated")).toBe("true");
    const text = await res.text();
    expect(text.length).toBeLessThan(9_000_000);
    const body = JSON.parse(text) as { attachments: Record<string, { name: string }[]> };
    expect(body.attachments.pdf_versions.map((a) => a.name)).toEqual(["big1.bin.v1.pdf"]);
    expect(body.attachments.thumbnails.map((a) => a.name)).toContain("a.jpg.thumb.png");
  });

  it("multipart mode too", async () => {
    const res = await postScanner({ apiKey, caseNumber: scanCase(), zip: bigArchive() });
    expect(res.headers.get("x-payload-truncated")).toBe("true");
    const parts = await parseMultipart(res);
    expect(parts.reduce((n, p) => n + p.body.length, 0)).toBeLessThan(9_000_000);
    const versions = unzipSync(parts.find((p) => p.headers["content-disposition"].includes("pdf_versions"))!.body);
    expect(Object.keys(versions)).toEqual(["big1.bin.v1.pdf"]);
  });
});

describe("presigned download: attachments.zip behind a signed link (spec 4.4, DESIGN §12)", () => {
  it("answers plain JSON even for Accept multipart, and the link serves the bundle without a key", async () => {
    const { apiKey: dlKey } = await createAccount({ name: "Downloads", features: { presignedDownload: true } });
    const res = await postScanner({
      apiKey: dlKey,
      caseNumber: scanCase(),
      zip: zip({ "a.jpg": samples.canon, "big.bin": new TextEncoder().encode(`${BIG_MARKER}12000000`) }),
      headers: { accept: "multipart/mixed" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = await res.json<{ attachmentDownloadUrl: string; attachments?: unknown }>();
    expect(body.attachments).toBeUndefined();
    expect(body.attachmentDownloadUrl).toMatch(
      /^https:\/\/capture\.test\/v2\/downloads\/[0-9a-f-]{36}\/attachments\.zip\?expires=\d+&sig=[0-9a-f]{64}$/,
    );
    const download = await SELF.fetch(body.attachmentDownloadUrl);
    expect(download.status).toBe(200);
    const outer = unzipSync(new Uint8Array(await download.arrayBuffer()));
    expect(Object.keys(outer)).toEqual(expect.arrayContaining(["pdf_versions.zip", "thumbnails.zip"]));
    for (const name of Object.keys(outer))
      expect([
        "analysis_report.zip",
        "enfsi_report.zip",
        "heatmaps.zip",
        "thumbnails.zip",
        "reverse_search_downloads.zip",
        "pdf_versions.zip",
        "pdf_diffs.zip",
      ]).toContain(name);
    // The 9 MB cap does not apply here: the 12 MB attachment is inside.
    expect(unzipSync(outer["pdf_versions.zip"])["big.bin.v1.pdf"].length).toBe(12_000_000);
    expect(Object.keys(unzipSync(outer["thumbnails.zip"]))).toEqual(["a.jpg.thumb.png"]);
    const url: string = body.attachmentDownloadUrl;
    const tampered = url.slice(0, -1) + (url.endsWith("0") ? "1" : "0");
    expect((await SELF.fetch(tampered)).status).toBe(403);
  });
});

describe("hostile archives over HTTP: a clear 4xx fast, and the service keeps serving", () => {
  it.each([
    ["not a ZIP", samples.pdf, "not-a-zip"],
    ["a truncated ZIP", zip({ "a.jpg": samples.canon, "b.jpg": samples.nikon }).subarray(0, 9000), "zip-truncated"],
    ["../ names", zip({ "../../etc/x.jpg": samples.canon }), "zip-unsafe-name"],
  ])("%s → 422", async (_name, bytes, code) => {
    const started = Date.now();
    const res = await postScanner({ apiKey, caseNumber: scanCase(), zip: bytes });
    expect(res.status).toBe(422);
    expect((await res.json<{ type: string }>()).type).toBe(`urn:capture-verify:problem:${code}`);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("a zip bomb and a 10,000-entry archive → 422, then a normal request succeeds", async () => {
    const zeros = zip({ "zeros.bin": new Uint8Array(8 * 1024 * 1024) });
    const bomb = zip(Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`lib ${i}.zip`, zeros])));
    const many = zip(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}.txt`, new Uint8Array(1)])), 0);
    for (const bytes of [bomb, many]) {
      const started = Date.now();
      const res = await postScanner({ apiKey, caseNumber: scanCase(), zip: bytes });
      expect(res.status).toBe(422);
      expect(Date.now() - started).toBeLessThan(2000);
    }
    expect(
      (
        await postScanner({
          apiKey,
          caseNumber: scanCase(),
          zip: zip({ "a.jpg": samples.nikon }),
          headers: { accept: "application/json" },
        })
      ).status,
    ).toBe(200);
  });

  it("encrypted entries → 422", async () => {
    const bytes = zip({ "a.jpg": samples.canon });
    const view = new DataView(bytes.buffer);
    for (let i = 0; i + 4 <= bytes.length; i++) if (view.getUint32(i, true) === 0x02014b50) bytes[i + 8] |= 1;
    const res = await postScanner({ apiKey, caseNumber: scanCase(), zip: bytes });
    expect(res.status).toBe(422);
  });
});
