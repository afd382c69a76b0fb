import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { BASE, createAccount, postJson, uniqueCaseNumber } from "./helpers";
import { samples, zip } from "./scanner/fixtures";
import { postScanner } from "./scanner/http";

// Issue 19, item 4: one normalisation of case numbers (trim, Unicode NFC) at every entry point.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

let apiKey: string;
const auth = () => ({ "x-api-key": apiKey });
beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "Case numbers" }));
});

const status = (caseNumber: string) =>
  SELF.fetch(`${BASE}/capture/status?caseNumber=${encodeURIComponent(caseNumber)}`, { headers: auth() });

describe("capture: a case number with surrounding spaces is the same case on create, status and retrigger", () => {
  it('creates "  X  " as "X", finds it by "  X  " and re-triggers it by " X"', async () => {
    const caseNumber = uniqueCaseNumber("TRIM");
    const created = await postJson("/capture/link", { caseNumber: `  ${caseNumber}  ` }, auth());
    expect(created.status).toBe(201);
    expect((await created.json<{ caseNumber: string }>()).caseNumber).toBe(caseNumber);

    const found = await status(`  ${caseNumber}  `);
    expect(found.status).toBe(200);
    expect((await found.json<{ caseNumber: string }>()).caseNumber).toBe(caseNumber);

    const retriggered = await postJson("/capture/retrigger", { caseNumber: ` ${caseNumber}` }, auth());
    expect(retriggered.status).toBe(200);
    // And a second create with other spacing is the same open case.
    expect((await postJson("/capture/link", { caseNumber: `${caseNumber}\t` }, auth())).status).toBe(409);
  });

  it("a case number of spaces only is refused, not looked up", async () => {
    const res = await status("   ");
    expect(res.status).toBe(400);
    expect((await res.json<{ errors: { field: string }[] }>()).errors[0].field).toBe("caseNumber");
  });
});

describe("capture: a decomposed and a precomposed case number (Unicode NFC) are the same case", () => {
  it('creates with "a\u0308" and finds it with "\u00e4"', async () => {
    const stem = uniqueCaseNumber("SCHADEN");
    const decomposed = `${stem}-Scha\u0308den`;
    const precomposed = `${stem}-Sch\u00e4den`;
    const created = await postJson("/capture/link", { caseNumber: decomposed }, auth());
    expect(created.status).toBe(201);
    expect((await created.json<{ caseNumber: string }>()).caseNumber).toBe(precomposed);
    expect((await status(precomposed)).status).toBe(200);
    expect((await status(decomposed)).status).toBe(200);
  });
});

describe("scanner: the caseNumber header is normalised like the capture API's", () => {
  // Fetch already strips spaces and tabs around header values; a no-break space (U+00A0) it keeps.
  const nbsp = (value: string) => `\u00a0${value}\u00a0`;

  it("the result echoes the trimmed caseNumber", async () => {
    const caseNumber = uniqueCaseNumber("NB");
    const res = await postScanner({
      apiKey,
      caseNumber: nbsp(caseNumber),
      zip: zip({ "a.jpg": samples.canon }),
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(200);
    expect((await res.json<{ caseNumber: string }>()).caseNumber).toBe(caseNumber);
  });

  it('a storage_key issued for " X " is accepted by a scan for "X"', async () => {
    const caseNumber = uniqueCaseNumber("NB");
    const issued = await SELF.fetch(`${BASE}/v2/getUploadUrl`, {
      method: "POST",
      headers: { ...auth(), caseNumber: nbsp(caseNumber) },
    });
    expect(issued.status).toBe(200);
    const { upload_url, storage_key } = await issued.json<{ upload_url: string; storage_key: string }>();
    const put = await SELF.fetch(upload_url, {
      method: "PUT",
      headers: { "content-type": "application/zip" },
      body: zip({ "a.jpg": samples.canon }),
    });
    expect(put.status).toBe(200);
    const res = await postScanner({
      apiKey,
      caseNumber,
      storageKey: storage_key,
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(200);
  });
});
