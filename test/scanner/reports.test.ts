/**
 * The report PDFs through the service (spec 2.6, 4.4; DESIGN §20): built by the reports unit after
 * the files, present in every response mode, counted towards the inline cap, `pdfReportMapping` for
 * accounts that have it. The rendering itself (fonts, pages, text positions) is checked with poppler
 * in test/node/reports-render.test.ts.
 */
import { env, SELF } from "cloudflare:test";
import { unzipSync } from "fflate";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { analyzers } from "../../src/scanner/forensics/registry";
import { t } from "../../src/scanner/reports/i18n";
import { reportBuilders } from "../../src/scanner/reports/report-unit";
import { languages } from "../../src/scanner/types";
import { createAccount } from "../helpers";
import { samples, zip } from "./fixtures";
import { postScanner, scanCase } from "./http";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

interface JsonResult {
  sessionId: string;
  caseNumber: string;
  Files: Record<string, { sha256: string | null }>;
  pdfReportMapping?: Record<string, number>;
  attachments: Record<string, { name: string; contentType: string; size: number; data: string }[]>;
}

const decode = (data: string) => Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
const pdfText = async (bytes: Uint8Array) => {
  const { text, totalPages } = await extractText(await getDocumentProxy(bytes.slice()), { mergePages: false });
  return { pages: text as string[], totalPages };
};
/** Two photos, a PDF, a damaged JPEG. */
const archive = () =>
  zip({
    "Küche_äöüß.jpg": samples.canon,
    "łazienka.jpg": samples.nikon,
    "Rechnung.pdf": samples.pdf,
    "kaputt.jpg": samples.corruptJpeg,
  });

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "Reports", features: { pdfReportMapping: true } }));
});

describe("JSON mode: analysis_report and enfsi_report as base64 PDFs; pdfReportMapping", () => {
  it("maps every file to the page of its section, which names it; the cover names case and session", async () => {
    const caseNumber = scanCase("REPORT");
    const res = await postScanner({ apiKey, caseNumber, zip: archive(), headers: { accept: "application/json" } });
    expect(res.status).toBe(200);
    const body = await res.json<JsonResult>();
    expect(body.attachments.analysis_report.map((a) => [a.name, a.contentType])).toEqual([
      ["analysis_report.pdf", "application/pdf"],
    ]);
    expect(body.attachments.enfsi_report.map((a) => a.name)).toEqual(["enfsi_report.pdf"]);
    const mapping = body.pdfReportMapping!;
    expect(Object.keys(mapping)).toEqual(Object.keys(body.Files));
    const report = await pdfText(decode(body.attachments.analysis_report[0].data));
    expect(Object.values(mapping).every((p) => p >= 2 && p <= report.totalPages)).toBe(true);
    for (const [name, page] of Object.entries(mapping)) expect(report.pages[page - 1]).toContain(name);
    // The first delivery's sessionId is the one the reports name.
    expect(report.pages[0]).toContain(caseNumber);
    expect(report.pages[0]).toContain(body.sessionId);
    const enfsi = await pdfText(decode(body.attachments.enfsi_report[0].data));
    const enfsiText = enfsi.pages.join("\n").replace(/\s+/g, "");
    for (const file of Object.values(body.Files)) if (file.sha256) expect(enfsiText).toContain(file.sha256);
  });

  it("without the feature the PDFs are still attached, and pdfReportMapping is absent", async () => {
    const { apiKey: plainKey } = await createAccount({ name: "Reports plain" });
    const res = await postScanner({
      apiKey: plainKey,
      caseNumber: scanCase("REPORT"),
      zip: zip({ "a.jpg": samples.nikon }),
      headers: { accept: "application/json" },
    });
    const body = await res.json<JsonResult>();
    expect("pdfReportMapping" in body).toBe(false);
    expect(body.attachments.analysis_report).toHaveLength(1);
    expect(body.attachments.enfsi_report).toHaveLength(1);
  });
});

describe("multipart/mixed: analysis_report.zip and enfsi_report.zip parts", () => {
  it("each holds its PDF", async () => {
    const res = await postScanner({ apiKey, caseNumber: scanCase("REPORT"), zip: zip({ "a.jpg": samples.canon }) });
    expect(res.status).toBe(200);
    const body = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder("latin1").decode(body);
    for (const [bundle, entry] of [
      ["analysis_report.zip", "analysis_report.pdf"],
      ["enfsi_report.zip", "enfsi_report.pdf"],
    ]) {
      const header = text.indexOf(`filename="${bundle}"`);
      expect(header).toBeGreaterThan(0);
      const length = Number(/Content-Length: (\d+)/.exec(text.slice(header))![1]);
      const start = text.indexOf("\r\n\r\n", header) + 4;
      const inner = unzipSync(body.subarray(start, start + length));
      expect(Object.keys(inner)).toEqual([entry]);
      expect(new TextDecoder().decode(inner[entry].subarray(0, 5))).toBe("%PDF-");
    }
  });
});

describe("presigned download: attachments.zip carries both report bundles", () => {
  it("analysis_report.zip and enfsi_report.zip with their PDFs", async () => {
    const { apiKey: dlKey } = await createAccount({
      name: "Reports download",
      features: { presignedDownload: true, pdfReportMapping: true },
    });
    const res = await postScanner({
      apiKey: dlKey,
      caseNumber: scanCase("REPORT"),
      zip: zip({ "a.jpg": samples.canon }),
    });
    const body = await res.json<{ attachmentDownloadUrl: string; pdfReportMapping: Record<string, number> }>();
    expect(body.pdfReportMapping).toEqual({ "a.jpg": 2 });
    const outer = unzipSync(new Uint8Array(await (await SELF.fetch(body.attachmentDownloadUrl)).arrayBuffer()));
    expect(Object.keys(unzipSync(outer["analysis_report.zip"]))).toEqual(["analysis_report.pdf"]);
    expect(Object.keys(unzipSync(outer["enfsi_report.zip"]))).toEqual(["enfsi_report.pdf"]);
  });
});

describe("inline payload cap: the reports count like any attachment and are dropped last", () => {
  it("a cap that everything but the reports would fit in truncates, and the response stays under it", async () => {
    const files = { "a.jpg": samples.canon };
    const full = await postScanner({
      apiKey,
      caseNumber: scanCase("REPORT"),
      zip: zip(files),
      headers: { accept: "application/json" },
    });
    const text = await full.text();
    const reports = JSON.parse(text) as JsonResult;
    const reportBytes = [...reports.attachments.analysis_report, ...reports.attachments.enfsi_report].reduce(
      (n, a) => n + a.data.length,
      0,
    );
    // Without the reports in the estimate, this cap would not be exceeded and the reports would be sent.
    const cap = text.length - Math.floor(reportBytes / 2);
    const capped = await postScanner({
      apiKey,
      caseNumber: scanCase("REPORT"),
      zip: zip(files),
      headers: { accept: "application/json" },
      bindings: { ...env, INLINE_PAYLOAD_CAP_BYTES: String(cap) },
    });
    expect(capped.headers.get("x-payload-truncated")).toBe("true");
    const cappedText = await capped.text();
    expect(cappedText.length).toBeLessThanOrEqual(cap);
    // The other attachments go first: the reports are what the caller forwards.
    const kept = (JSON.parse(cappedText) as JsonResult).attachments;
    expect(kept.analysis_report).toHaveLength(1);
    expect(kept.enfsi_report).toHaveLength(1);
    const others = (a: JsonResult["attachments"]) =>
      Object.entries(a).flatMap(([category, list]) => (category.endsWith("_report") ? [] : list));
    expect(others(kept).length).toBeLessThan(others(reports.attachments).length);
  });
});

describe("ENFSI report: every registered method has a name and its limitations in every language", () => {
  it.each(languages)("%s", (language) => {
    const words = t(language);
    for (const { id } of analyzers) {
      expect(words.methodNames[id], id).toBeTruthy();
      expect(words.limitationTexts[id], id).toBeTruthy();
    }
  });
});

describe("a reports unit that fails: the result is still delivered, without reports", () => {
  it("200 with the files, no report attachments, pdfReportMapping {}", async () => {
    // The Worker, its Durable Objects and this test share one module graph in the pool.
    const original = reportBuilders.analysis;
    reportBuilders.analysis = () => Promise.reject(new Error("test: the report cannot be built"));
    try {
      const res = await postScanner({
        apiKey,
        caseNumber: scanCase("REPORT"),
        zip: zip({ "a.jpg": samples.nikon }),
        headers: { accept: "application/json" },
      });
      expect(res.status).toBe(200);
      const body = await res.json<JsonResult>();
      expect(Object.keys(body.Files)).toEqual(["a.jpg"]);
      expect(body.pdfReportMapping).toEqual({});
      expect(body.attachments.analysis_report).toBeUndefined();
      expect(body.attachments.enfsi_report).toBeUndefined();
      expect(body.attachments.thumbnails).toHaveLength(1);
    } finally {
      reportBuilders.analysis = original;
    }
  });
});
