import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { BASE, createAccount } from "./helpers";
import { samples, zip } from "./scanner/fixtures";
import { scanCase } from "./scanner/http";

// Issue 19, item 9: a refused or cut-off body never leaves a 500 or a half-read stream behind.
vi.setConfig({ testTimeout: 60_000 });

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "Refused bodies" }));
});

/** A chunked body of `total` bytes that counts how much of it was pulled by the Worker. */
function countedBody(total: number, chunk = 16 * 1024) {
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) return controller.close();
      const size = Math.min(chunk, total - counter.pulled);
      counter.pulled += size;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  });
  return { stream, counter };
}

async function uploadUrl(): Promise<string> {
  const res = await SELF.fetch(`${BASE}/v2/getUploadUrl`, {
    method: "POST",
    headers: { "x-api-key": apiKey, caseNumber: scanCase("RB") },
  });
  return (await res.json<{ upload_url: string }>()).upload_url;
}

describe("a body refused with 413 is read to its end first, so the connection can carry the next request", () => {
  it("a 1 MB chunked JSON body on POST /capture/link", async () => {
    const { stream, counter } = countedBody(1_000_000);
    const res = await SELF.fetch(`${BASE}/capture/link`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: stream,
    });
    expect(res.status).toBe(413);
    expect(counter.pulled).toBe(1_000_000);
    // And the next request is served.
    const next = await SELF.fetch(`${BASE}/capture/link`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ caseNumber: scanCase("RB") }),
    });
    expect(next.status).toBe(201);
  });

  it("a PUT to an upload URL refused before reading (wrong content type)", async () => {
    const { stream, counter } = countedBody(300_000);
    const res = await SELF.fetch(await uploadUrl(), {
      method: "PUT",
      headers: { "content-type": "text/plain", "content-length": "300000" },
      body: stream,
    });
    expect(res.status).toBe(415);
    expect(counter.pulled).toBe(300_000);
  });
});

describe("a PUT whose body ends before its Content-Length is a 400 problem on field body, not a 500", () => {
  it.each([
    [
      "the connection breaks after 1000 bytes",
      (controller: ReadableStreamDefaultController<Uint8Array>) => controller.error(new Error("connection lost")),
    ],
    ["the body ends after 1000 bytes", (controller: ReadableStreamDefaultController<Uint8Array>) => controller.close()],
  ])("%s", async (_name, end) => {
    const url = await uploadUrl();
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return end(controller);
        sent = true;
        controller.enqueue(new Uint8Array(1000));
      },
    });
    const res = await SELF.fetch(url, {
      method: "PUT",
      headers: { "content-type": "application/zip", "content-length": "100000" },
      body,
    });
    expect(res.status).toBe(400);
    const problem = await res.json<{ type: string; errors: { field: string; message: string }[] }>();
    expect(problem.type).toBe("urn:capture-verify:problem:validation-error");
    expect(problem.errors[0].field).toBe("body");
    expect(problem.errors[0].message).toContain("Content-Length");
    // Nothing was stored, so the link still takes the archive.
    const archive = zip({ "a.jpg": samples.canon });
    const retry = await SELF.fetch(url, {
      method: "PUT",
      headers: { "content-type": "application/zip" },
      body: archive,
    });
    expect(retry.status).toBe(200);
  });
});
