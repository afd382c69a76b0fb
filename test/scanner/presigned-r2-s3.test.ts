import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { clock } from "../../src/lib/clock";
import { r2S3Setting } from "../../src/scanner/transfer/r2-s3";
import { BASE, createAccount } from "../helpers";
import { samples, zip } from "./fixtures";
import { scanCase } from "./http";
import { canonicalRequest, expectedSignature } from "./sigv4";

/**
 * R2 S3 presigned uploads (DESIGN §11 "may"). No R2 S3 endpoint is reachable from the tests, so
 * the URL is checked by recomputing its SigV4 signature, and the client's PUT is simulated by
 * writing the object into the BUCKET binding under the key the URL names. The Worker's fetch
 * handler is called directly with the test bindings plus the R2_S3_* secrets.
 */
const ACCOUNT = "0123456789abcdef0123456789abcdef";
const CREDENTIALS = {
  R2_S3_ACCESS_KEY_ID: "test-access-key-id",
  R2_S3_SECRET_ACCESS_KEY: "test-secret-access-key-0123456789",
  R2_S3_BUCKET: "capture-verify",
};
const s3Env: Bindings = { ...(env as Env), R2_S3_ACCOUNT_ID: ACCOUNT, ...CREDENTIALS };
type Bindings = Env;

// The end-to-end scan runs every registered detector (model cold starts included).
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "R2 S3 presigned" }));
});
afterEach(() => {
  clock.reset();
  vi.restoreAllMocks();
});

async function call(request: Request, bindings: Bindings): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function getUploadUrl(caseNumber: string, bindings: Bindings = s3Env) {
  const res = await call(
    new Request(`${BASE}/v2/getUploadUrl`, { method: "POST", headers: { "x-api-key": apiKey, caseNumber } }),
    bindings,
  );
  expect(res.status).toBe(200);
  return res.json<{ upload_url: string; storage_key: string }>();
}

function scan(caseNumber: string, storageKey: string, bindings: Bindings = s3Env): Promise<Response> {
  const headers = { "x-api-key": apiKey, caseNumber, accept: "application/json" };
  return call(new Request(`${BASE}/v2/scanner?storage_key=${storageKey}`, { method: "POST", headers }), bindings);
}

/** What the client's PUT to the presigned URL would leave in R2: the object under the URL's key. */
async function simulateS3Put(uploadUrl: string, bytes: Uint8Array): Promise<string> {
  const objectKey = new URL(uploadUrl).pathname.replace(`/${CREDENTIALS.R2_S3_BUCKET}/`, "");
  await env.BUCKET.put(objectKey, bytes, { httpMetadata: { contentType: "application/zip" } });
  return objectKey;
}

const zipPut = (url: string) => ({ url, method: "PUT", headers: { "content-type": "application/zip" } });

describe("the independent SigV4 check", () => {
  it("reproduces the presigned-URL example of the AWS S3 documentation", async () => {
    const url =
      "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host";
    expect(await expectedSignature({ url, method: "GET" }, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")).toBe(
      "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
    );
  });
});

describe("POST /v2/getUploadUrl with R2 S3 credentials", () => {
  it("answers an R2 S3 presigned PUT for the storage key's object, valid UPLOAD_URL_TTL_S", async () => {
    clock.advance(3_600_000); // the signing time follows the service clock
    const caseNumber = scanCase("S3");
    const body = await getUploadUrl(caseNumber);
    expect(body.storage_key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const url = new URL(body.upload_url);
    expect(url.origin).toBe(`https://${ACCOUNT}.r2.cloudflarestorage.com`);
    expect(url.pathname).toBe(`/capture-verify/uploads/${body.storage_key}`);

    const q = Object.fromEntries(url.searchParams);
    const amzDate = q["X-Amz-Date"];
    expect(amzDate).toMatch(/^\d{8}T\d{6}Z$/);
    const signedAt = Date.parse(
      amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"),
    );
    expect(Math.abs(signedAt - clock.nowMs())).toBeLessThan(5_000);
    expect(q).toEqual({
      "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
      "X-Amz-Credential": `test-access-key-id/${amzDate.slice(0, 8)}/auto/s3/aws4_request`,
      "X-Amz-Date": amzDate,
      "X-Amz-Expires": "600",
      "X-Amz-SignedHeaders": "content-type;host",
      "X-Amz-Signature": expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(canonicalRequest(zipPut(body.upload_url)).split("\n").slice(0, 2)).toEqual([
      "PUT",
      `/capture-verify/uploads/${body.storage_key}`,
    ]);
    expect(q["X-Amz-Signature"]).toBe(
      await expectedSignature(zipPut(body.upload_url), CREDENTIALS.R2_S3_SECRET_ACCESS_KEY),
    );

    // The D1 record is the same as for a Worker URL: account, caseNumber, expiry, nothing uploaded yet.
    const row = await env.DB.prepare("SELECT case_number, expires_at, uploaded_at FROM uploads WHERE storage_key = ?")
      .bind(body.storage_key)
      .first<{ case_number: string; expires_at: number; uploaded_at: number | null }>();
    expect(row).toEqual({ case_number: caseNumber, expires_at: signedAt + 600_000, uploaded_at: null });
  });

  it("the signature binds the method, the Content-Type, the key and the secret", async () => {
    const { upload_url } = await getUploadUrl(scanCase("S3"));
    const signature = new URL(upload_url).searchParams.get("X-Amz-Signature");
    const otherKey = upload_url.replace("/uploads/", "/uploads/x");
    const variants = [
      expectedSignature({ ...zipPut(upload_url), method: "GET" }, CREDENTIALS.R2_S3_SECRET_ACCESS_KEY),
      expectedSignature(
        { ...zipPut(upload_url), headers: { "content-type": "application/octet-stream" } },
        CREDENTIALS.R2_S3_SECRET_ACCESS_KEY,
      ),
      expectedSignature(zipPut(otherKey), CREDENTIALS.R2_S3_SECRET_ACCESS_KEY),
      expectedSignature(zipPut(upload_url), "another-secret"),
    ];
    for (const variant of await Promise.all(variants)) expect(variant).not.toBe(signature);
  });

  it("uses R2_S3_ENDPOINT instead of the account host when that is configured", async () => {
    const bindings = { ...env, R2_S3_ENDPOINT: `https://${ACCOUNT}.eu.r2.cloudflarestorage.com`, ...CREDENTIALS };
    const { upload_url, storage_key } = await getUploadUrl(scanCase("S3"), bindings);
    expect(
      upload_url.startsWith(`https://${ACCOUNT}.eu.r2.cloudflarestorage.com/capture-verify/uploads/${storage_key}?`),
    ).toBe(true);
    expect(new URL(upload_url).searchParams.get("X-Amz-Signature")).toBe(
      await expectedSignature(zipPut(upload_url), CREDENTIALS.R2_S3_SECRET_ACCESS_KEY),
    );
  });

  it("without R2_S3_* the URL is the Worker's own signed PUT, as before", async () => {
    const { upload_url, storage_key } = await getUploadUrl(scanCase("S3"), env);
    expect(upload_url).toMatch(
      new RegExp(`^https://capture\\.test/v2/uploads/${storage_key}\\?expires=\\d+&sig=[0-9a-f]{64}$`),
    );
  });
});

describe("a half-set configuration falls back to the Worker URL and logs why", () => {
  const cases: [string, Partial<Bindings>, string][] = [
    [
      "only an access key",
      { R2_S3_ACCESS_KEY_ID: "id" },
      "R2_S3_SECRET_ACCESS_KEY is not set; R2_S3_BUCKET is not set; R2_S3_ACCOUNT_ID or R2_S3_ENDPOINT is not set",
    ],
    ["no account id or endpoint", { ...CREDENTIALS }, "R2_S3_ACCOUNT_ID or R2_S3_ENDPOINT is not set"],
    [
      "a malformed account id",
      { ...CREDENTIALS, R2_S3_ACCOUNT_ID: "my-account" },
      "R2_S3_ACCOUNT_ID is not a 32-character hexadecimal account id",
    ],
    [
      "both account id and endpoint",
      { ...CREDENTIALS, R2_S3_ACCOUNT_ID: ACCOUNT, R2_S3_ENDPOINT: "https://r2.example" },
      "set either R2_S3_ACCOUNT_ID or R2_S3_ENDPOINT, not both",
    ],
    [
      "an endpoint with a path",
      { ...CREDENTIALS, R2_S3_ENDPOINT: "https://r2.example/bucket" },
      "R2_S3_ENDPOINT is not an https origin (https://host, no path or query)",
    ],
    [
      "a plain-http endpoint",
      { ...CREDENTIALS, R2_S3_ENDPOINT: "http://r2.example" },
      "R2_S3_ENDPOINT is not an https origin (https://host, no path or query)",
    ],
    [
      "an invalid bucket name",
      { ...CREDENTIALS, R2_S3_ACCOUNT_ID: ACCOUNT, R2_S3_BUCKET: "Capture_Verify" },
      "R2_S3_BUCKET is not a valid R2 bucket name",
    ],
  ];
  it.each(cases)("%s", async (_, partial, problems) => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const bindings = { ...env, ...partial };
    expect(r2S3Setting(bindings)).toEqual({ kind: "misconfigured", problems: problems.split("; ") });
    const { upload_url } = await getUploadUrl(scanCase("S3"), bindings);
    expect(upload_url.startsWith("https://capture.test/v2/uploads/")).toBe(true);
    expect(errors).toHaveBeenCalledWith(`R2 S3 presigning is misconfigured, using Worker upload URLs: ${problems}`);
    expect(JSON.stringify(errors.mock.calls)).not.toContain(CREDENTIALS.R2_S3_SECRET_ACCESS_KEY);
  });
  it("empty strings count as unset", () => {
    expect(r2S3Setting({ ...env, R2_S3_ACCOUNT_ID: "", R2_S3_ACCESS_KEY_ID: " " })).toEqual({ kind: "off" });
  });
});

describe("scan with the storage_key of an R2 S3 upload", () => {
  it("nothing uploaded yet is 400; after the PUT the archive is analysed, then deleted and spent", async () => {
    const caseNumber = scanCase("S3");
    const { upload_url, storage_key } = await getUploadUrl(caseNumber);
    const early = await scan(caseNumber, storage_key);
    expect(early.status).toBe(400);
    expect((await early.json<{ errors: { field: string }[] }>()).errors[0].field).toBe("storage_key");

    const archive = zip({ "a.jpg": samples.canon, "b.jpg": samples.nikon });
    expect(await simulateS3Put(upload_url, archive)).toBe(`uploads/${storage_key}`);
    const wrongCase = await scan(scanCase("OTHER"), storage_key);
    expect(wrongCase.status).toBe(400);
    expect((await wrongCase.json<{ errors: { field: string }[] }>()).errors[0].field).toBe("caseNumber");

    const res = await scan(caseNumber, storage_key);
    expect(res.status).toBe(200);
    expect(Object.keys((await res.json<{ Files: Record<string, unknown> }>()).Files)).toEqual(["a.jpg", "b.jpg"]);
    expect(await env.BUCKET.head(`uploads/${storage_key}`)).toBeNull();
    const row = await env.DB.prepare("SELECT size, uploaded_at, consumed_at FROM uploads WHERE storage_key = ?")
      .bind(storage_key)
      .first<{ size: number; uploaded_at: number | null; consumed_at: number | null }>();
    expect(row!.size).toBe(archive.length);
    expect(row!.uploaded_at).not.toBeNull();
    expect(row!.consumed_at).not.toBeNull();
    expect((await scan(caseNumber, storage_key)).status).toBe(410);
  });

  it("an object over PRESIGNED_MAX_BYTES is 413 and deleted", async () => {
    const caseNumber = scanCase("S3");
    const { upload_url, storage_key } = await getUploadUrl(caseNumber);
    await simulateS3Put(upload_url, new Uint8Array(50 * 1024 * 1024 + 1));
    const res = await scan(caseNumber, storage_key);
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = await res.json<{ type: string; detail: string }>();
    expect(problem.type).toBe("urn:capture-verify:problem:payload-too-large");
    expect(problem.detail).toContain("at most 52428800 bytes");
    expect(await env.BUCKET.head(`uploads/${storage_key}`)).toBeNull();
  });

  it("an object that is not a ZIP (the content type is not checked by R2 beyond the signature) is 422", async () => {
    const caseNumber = scanCase("S3");
    const { upload_url, storage_key } = await getUploadUrl(caseNumber);
    await simulateS3Put(upload_url, new TextEncoder().encode("not a zip at all"));
    const res = await scan(caseNumber, storage_key);
    expect(res.status).toBe(422);
    expect((await res.json<{ type: string }>()).type).toBe("urn:capture-verify:problem:not-a-zip");
  });
});
