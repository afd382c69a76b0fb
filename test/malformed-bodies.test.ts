import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, BASE, createAccount, uniqueCaseNumber } from "./helpers";
import { scanCase } from "./scanner/http";

// Issue 19, item 7: a body that cannot be parsed is a validation problem with a field, like every other 400.

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "Malformed bodies" }));
});

interface Problem {
  type: string;
  status: number;
  detail: string;
  errors?: { field: string; message: string }[];
}

async function expectValidationProblem(res: Response, field: string): Promise<void> {
  expect(res.status).toBe(400);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const body = await res.json<Problem>();
  expect(body.type).toBe("urn:capture-verify:problem:validation-error");
  expect(body.errors?.map((e) => e.field)).toEqual([field]);
  // Our words, not the parser's.
  expect(JSON.stringify(body)).not.toMatch(/Malformed|Failed to parse|TypeError/);
}

describe("a broken multipart body on POST /v2/scanner is a validation problem on field file", () => {
  it.each([
    ["a body that does not match its boundary", "multipart/form-data; boundary=XYZ", "this is not multipart at all"],
    [
      "a part that never ends",
      "multipart/form-data; boundary=XYZ",
      '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.zip"\r\nContent-Type: application/zip\r\n\r\nPK\u0003\u0004',
    ],
    ["multipart without a boundary", "multipart/form-data", "--XYZ--\r\n"],
  ])("%s", async (_name, contentType, body) => {
    const res = await SELF.fetch(`${BASE}/v2/scanner`, {
      method: "POST",
      headers: { "x-api-key": apiKey, caseNumber: scanCase("MB"), "content-type": contentType },
      body,
    });
    await expectValidationProblem(res, "file");
  });
});

describe("malformed JSON on the capture and admin APIs is a validation problem on field body", () => {
  it.each(["/capture/link", "/capture/retrigger", "/admin/accounts"])("POST %s", async (path) => {
    const headers = path.startsWith("/admin") ? ADMIN : { "x-api-key": apiKey, "content-type": "application/json" };
    for (const body of ['{"caseNumber": ', "not json", `{"caseNumber":"${uniqueCaseNumber()}"}}`]) {
      await expectValidationProblem(await SELF.fetch(`${BASE}${path}`, { method: "POST", headers, body }), "body");
    }
  });
});
