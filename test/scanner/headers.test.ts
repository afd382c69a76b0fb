import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { BASE, createAccount } from "../helpers";
import { samples, zip } from "./fixtures";
import { postScanner, scanCase } from "./http";

// Requests run every registered detector (model cold starts included) on a shared machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

let apiKey: string;
const archive = zip({ "a.jpg": samples.nikon });
beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "Scanner headers" }));
});

async function fieldsOf(res: Response): Promise<string[]> {
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const body = await res.json<{ errors?: { field: string }[] }>();
  return (body.errors ?? []).map((e) => e.field);
}

const pad = (d: Date) => ({
  dd: String(d.getUTCDate()).padStart(2, "0"),
  mm: String(d.getUTCMonth() + 1).padStart(2, "0"),
  yyyy: String(d.getUTCFullYear()),
});
const daysAhead = (days: number) => new Date(Date.now() + days * 86_400_000);

describe("x-api-key: only the header, exactly 40 characters", () => {
  it("absent is 401 with WWW-Authenticate", async () => {
    const res = await postScanner({ caseNumber: scanCase(), zip: archive });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("x-api-key");
  });
  it.each([
    ["39", 39],
    ["41", 41],
  ])("%s characters is 400 on field x-api-key", async (_n, length) => {
    const res = await postScanner({ apiKey: "k".repeat(length), caseNumber: scanCase(), zip: archive });
    expect(res.status).toBe(400);
    expect(await fieldsOf(res)).toEqual(["x-api-key"]);
  });
  it("40 characters but unknown is 401", async () => {
    expect((await postScanner({ apiKey: "k".repeat(40), caseNumber: scanCase(), zip: archive })).status).toBe(401);
  });
  it("the Bearer form is not accepted on /v2", async () => {
    const res = await SELF.fetch(`${BASE}/v2/scanner`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, caseNumber: scanCase() },
    });
    expect(res.status).toBe(401);
  });
});

describe("caseNumber: 4 to 50 characters", () => {
  it.each([
    ["missing", undefined, 400],
    ["3 characters", "abc", 400],
    ["51 characters", "x".repeat(51), 400],
  ])("%s is 400", async (_name, caseNumber, status) => {
    const res = await postScanner({ apiKey, caseNumber, zip: archive });
    expect(res.status).toBe(status);
    expect(await fieldsOf(res)).toEqual(["caseNumber"]);
  });
  it.each([
    ["4 characters", "abcd"],
    ["50 characters with a slash", `A/${"x".repeat(48)}`],
  ])("%s is accepted", async (_name, caseNumber) => {
    expect(
      (await postScanner({ apiKey, caseNumber, zip: archive, headers: { accept: "application/json" } })).status,
    ).toBe(200);
  });
});

describe("issueDate: five formats, optional time, real dates, at most 5 days ahead", () => {
  const { dd, mm, yyyy } = pad(daysAhead(5));
  it.each([
    ["DD.MM.YYYY", `${dd}.${mm}.${yyyy}`],
    ["DD-MM-YYYY", `${dd}-${mm}-${yyyy}`],
    ["DD/MM/YYYY", `${dd}/${mm}/${yyyy}`],
    ["YYYY-MM-DD", `${yyyy}-${mm}-${dd}`],
    ["YYYY.MM.DD", `${yyyy}.${mm}.${dd}`],
    ["with time", "01.03.2024 23:59:59"],
    ["leap day", "29.02.2024"],
  ])("%s is accepted", async (_name, issueDate) => {
    expect(
      (
        await postScanner({
          apiKey,
          caseNumber: scanCase(),
          zip: archive,
          headers: { issueDate, accept: "application/json" },
        })
      ).status,
    ).toBe(200);
  });

  const later = pad(daysAhead(6));
  it.each([
    ["6 days ahead", `${later.dd}.${later.mm}.${later.yyyy}`],
    ["31 April", "31.04.2024"],
    ["29 Feb in a common year", "29.02.2023"],
    ["month 13", "2024-13-01"],
    ["hour 24", "01.03.2024 24:00:00"],
    ["mixed separators", "01.03/2024"],
    ["two-digit year", "01.03.24"],
    ["ISO with zone", "2024-03-01T10:00:00Z"],
  ])("%s is 400", async (_name, issueDate) => {
    const res = await postScanner({ apiKey, caseNumber: scanCase(), zip: archive, headers: { issueDate } });
    expect(res.status).toBe(400);
    expect(await fieldsOf(res)).toEqual(["issueDate"]);
  });
});

describe("language, contactEmail, Accept", () => {
  it.each(["de", "en", "pl", "EN"])("language %s is accepted", async (language) => {
    expect(
      (
        await postScanner({
          apiKey,
          caseNumber: scanCase(),
          zip: archive,
          headers: { language, accept: "application/json" },
        })
      ).status,
    ).toBe(200);
  });
  it("language fr is 400", async () => {
    const res = await postScanner({ apiKey, caseNumber: scanCase(), zip: archive, headers: { language: "fr" } });
    expect(await fieldsOf(res)).toEqual(["language"]);
  });
  it("the default language is German", async () => {
    const res = await postScanner({
      apiKey,
      caseNumber: scanCase(),
      zip: zip({ "a.jpg": samples.nikon, "n.txt": new Uint8Array([1, 2, 3]) }),
      headers: { accept: "application/json" },
    });
    const body = await res.json<{ Files: Record<string, { findings: { title: string }[] }> }>();
    expect(body.Files["n.txt"].findings[0].title).toBe("Dateityp nicht unterstützt");
  });
  it("contactEmail must be an e-mail address", async () => {
    const res = await postScanner({ apiKey, caseNumber: scanCase(), zip: archive, headers: { contactEmail: "nope@" } });
    expect(await fieldsOf(res)).toEqual(["contactEmail"]);
    expect(
      (
        await postScanner({
          apiKey,
          caseNumber: scanCase(),
          zip: archive,
          headers: { contactEmail: "claims@insurer.example", accept: "application/json" },
        })
      ).status,
    ).toBe(200);
  });
  it("every invalid header is reported at once", async () => {
    const res = await postScanner({
      apiKey,
      caseNumber: "ab",
      zip: archive,
      headers: { language: "xx", issueDate: "yesterday" },
    });
    expect((await fieldsOf(res)).sort()).toEqual(["caseNumber", "issueDate", "language"]);
  });
  it("Accept: text/html is 406", async () => {
    expect(
      (await postScanner({ apiKey, caseNumber: scanCase(), zip: archive, headers: { accept: "text/html" } })).status,
    ).toBe(406);
  });
  it.each([[undefined], ["*/*"], ["multipart/mixed"]])("Accept %s gives multipart/mixed", async (accept) => {
    const res = await postScanner({ apiKey, caseNumber: scanCase(), zip: archive, headers: accept ? { accept } : {} });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^multipart\/mixed; boundary=/);
  });
});

describe("file XOR storage_key; direct uploads below DIRECT_UPLOAD_MAX_BYTES", () => {
  it("neither is 400", async () => {
    const res = await postScanner({ apiKey, caseNumber: scanCase() });
    expect(res.status).toBe(400);
    expect(await fieldsOf(res)).toEqual(["file"]);
  });
  it("both is 400", async () => {
    const res = await postScanner({ apiKey, caseNumber: scanCase(), zip: archive, storageKey: "A".repeat(22) });
    expect(res.status).toBe(400);
    expect(await fieldsOf(res)).toEqual(["file"]);
  });
  it("a 10 MB file is 413 and names the presigned flow", async () => {
    const res = await postScanner({ apiKey, caseNumber: scanCase(), zip: new Uint8Array(10 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect((await res.json<{ detail: string }>()).detail).toContain("/v2/getUploadUrl");
  });
  it("a raw ZIP body (not multipart) is 415 and says how to send it", async () => {
    const res = await SELF.fetch(`${BASE}/v2/scanner`, {
      method: "POST",
      headers: { "x-api-key": apiKey, caseNumber: scanCase(), "content-type": "application/zip" },
      body: archive,
    });
    expect(res.status).toBe(415);
    const { detail } = await res.json<{ detail: string }>();
    expect(detail).toContain('multipart/form-data in the part "file"');
    expect(detail).toContain("-F file=@claim.zip");
    expect(detail).toContain("POST /v2/getUploadUrl");
  });
  it("a text field named file is 400", async () => {
    const form = new FormData();
    form.append("file", "not a file");
    const res = await SELF.fetch(`${BASE}/v2/scanner`, {
      method: "POST",
      headers: { "x-api-key": apiKey, caseNumber: scanCase() },
      body: form,
    });
    expect(res.status).toBe(400);
  });
});
