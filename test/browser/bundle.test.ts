/**
 * The Worker as wrangler bundles it (`wrangler dev`), not as the workerd test pool loads it: libraries that
 * behave differently there are checked through a real request. libheif's emscripten glue reads `__dirname`
 * under nodejs_compat; without wrangler.toml's `define` every HEIC was reported undecodable by the service
 * while every workerd test passed.
 */
import { readFileSync } from "node:fs";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, startDevServer, type DevServer } from "./server";

let server: DevServer;

beforeAll(async () => {
  server = await startDevServer();
});

afterAll(async () => {
  await server?.stop();
});

type ScanAnswer = {
  Files: Record<string, { suspicion_level: string; findings: { code: string; evidence: unknown }[] }>;
};

describe("the bundled Worker reads every format whose library detects its environment", () => {
  it("a ZIP with a HEIC, a multi-page TIFF, a PDF and a WebP: all assessed, the pages analysed as PNG sub-files", async () => {
    const account = await fetch(`${server.base}/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Bundle", communicationMode: "eigenversand" }),
    });
    const { apiKey } = (await account.json()) as { apiKey: string };
    const zip = zipSync({
      "photo.heic": readFileSync("test/fixtures/formats/leuven.heic"),
      "pages.tiff": readFileSync("test/fixtures/formats/pages.tiff"),
      "form.pdf": readFileSync("../shared/data/pdf/pypdf/form.pdf"),
      "photo.webp": readFileSync("test/fixtures/formats/leuven.webp"),
    });
    const form = new FormData();
    form.append("file", new Blob([zip], { type: "application/zip" }), "claim.zip");
    const res = await fetch(`${server.base}/v2/scanner`, {
      method: "POST",
      headers: { "x-api-key": apiKey, caseNumber: `BUNDLE-${Date.now()}`, accept: "application/json" },
      body: form,
    });
    expect(res.status).toBe(200);
    const files = ((await res.json()) as ScanAnswer).Files;
    for (const name of ["photo.heic", "pages.tiff"]) {
      const codes = files[name].findings.map((f) => f.code);
      expect([name, codes]).toEqual([name, expect.arrayContaining(["IMAGE_FORMAT_DECODED"])]);
      expect(codes).not.toContain("IMAGE_FORMAT_UNDECODABLE");
    }
    expect(Object.keys(files)).toEqual(expect.arrayContaining(["photo.heic#p1.png", "pages.tiff#p1.png"]));
    // pdf.js (unpdf) and the WebP decoder run too: their files are judged, not '-'.
    for (const name of ["form.pdf", "photo.webp"]) expect([name, files[name].suspicion_level]).not.toEqual([name, "-"]);
  });
});
