import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN, BASE, createAccount, postJson, uniqueCaseNumber } from "./helpers";
import { samples, zip } from "./scanner/fixtures";
import { postScanner, scanCase } from "./scanner/http";

// Issue 19, item 6: nosniff on every response, no-store on every API response.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

let apiKey: string;
let token: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "Hardening headers" }));
  const created = await postJson("/capture/link", { caseNumber: uniqueCaseNumber("HH") }, { "x-api-key": apiKey });
  token = (await created.json<{ captureLink: string }>()).captureLink.split("/c/")[1];
});

function expectHardened(res: Response, what: string): void {
  expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(res.headers.get("cache-control"), what).toBe("no-store");
}

describe("every API response carries X-Content-Type-Options: nosniff and Cache-Control: no-store", () => {
  it("successes of the capture API, the capture page's JSON and /openapi.json", async () => {
    const caseNumber = uniqueCaseNumber("HH");
    const created = await postJson("/capture/link", { caseNumber }, { "x-api-key": apiKey });
    expect(created.status).toBe(201);
    expectHardened(created, "POST /capture/link");
    const status = await SELF.fetch(`${BASE}/capture/status?caseNumber=${encodeURIComponent(caseNumber)}`, {
      headers: { "x-api-key": apiKey },
    });
    expect(status.status).toBe(200);
    expectHardened(status, "GET /capture/status");
    const state = await SELF.fetch(`${BASE}/c/${token}/state`);
    expect(state.status).toBe(200);
    expectHardened(state, "GET /c/{token}/state");
    expectHardened(await SELF.fetch(`${BASE}/openapi.json`), "GET /openapi.json");
    expectHardened(
      await SELF.fetch(`${BASE}/admin/accounts`, {
        method: "POST",
        headers: ADMIN,
        body: JSON.stringify({ name: "X", communicationMode: "eigenversand" }),
      }),
      "POST /admin/accounts",
    );
  });

  it("errors: 400, 401, 404, 415 and an unknown endpoint", async () => {
    expectHardened(await postJson("/capture/link", { caseNumber: "" }, { "x-api-key": apiKey }), "400");
    expectHardened(await SELF.fetch(`${BASE}/capture/status?ticketId=x`), "401");
    expectHardened(
      await SELF.fetch(`${BASE}/capture/status?ticketId=nope`, { headers: { "x-api-key": apiKey } }),
      "404",
    );
    expectHardened(
      await SELF.fetch(`${BASE}/capture/link`, {
        method: "POST",
        headers: { "x-api-key": apiKey, "content-type": "text/plain" },
        body: "x",
      }),
      "415",
    );
    expectHardened(await SELF.fetch(`${BASE}/no/such/endpoint`), "404 endpoint");
  });

  it("scanner results (JSON and multipart), a 422, upload URLs and the attachment download ZIP", async () => {
    const json = await postScanner({
      apiKey,
      caseNumber: scanCase("HH"),
      zip: zip({ "a.jpg": samples.canon }),
      headers: { accept: "application/json" },
    });
    expect(json.status).toBe(200);
    expectHardened(json, "scanner JSON");
    const multipart = await postScanner({ apiKey, caseNumber: scanCase("HH"), zip: zip({ "a.jpg": samples.nikon }) });
    expect(multipart.status).toBe(200);
    expectHardened(multipart, "scanner multipart");
    await multipart.body?.cancel();
    expectHardened(await postScanner({ apiKey, caseNumber: scanCase("HH"), zip: samples.pdf }), "scanner 422");
    expectHardened(
      await SELF.fetch(`${BASE}/v2/getUploadUrl`, {
        method: "POST",
        headers: { "x-api-key": apiKey, caseNumber: scanCase("HH") },
      }),
      "getUploadUrl",
    );

    const { apiKey: dlKey } = await createAccount({
      name: "Hardening downloads",
      features: { presignedDownload: true },
    });
    const withLink = await postScanner({
      apiKey: dlKey,
      caseNumber: scanCase("HH"),
      zip: zip({ "a.jpg": samples.canon }),
    });
    expect(withLink.status).toBe(200);
    const download = await SELF.fetch((await withLink.json<{ attachmentDownloadUrl: string }>()).attachmentDownloadUrl);
    expect(download.status).toBe(200);
    expectHardened(download, "attachments.zip");
    await download.body?.cancel();
  });
});

describe("static capture page assets keep their own cache headers, with nosniff", () => {
  it.each(["/c/assets/capture.js", "/c/assets/capture.css"])("%s", async (path) => {
    const res = await SELF.fetch(`${BASE}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    await res.body?.cancel();
  });
});
