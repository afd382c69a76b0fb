import { SELF } from "cloudflare:test";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { AttemptOutcome } from "../../src/capture/outcome";
import type { PageState as ServerPageState } from "../../src/capture/page-state";
import type { PhotoReceipt as ServerPhotoReceipt } from "../../src/capture/photos";
import type { FinishAnswer, PageState, PhotoReceipt } from "../../src/pages/capture/browser/contract";
import { BASE } from "../helpers";

// The browser sources as text (Vite `?raw`), keyed by path: what scripts/build-browser.mjs digests.
const sources = import.meta.glob("../../src/pages/capture/browser/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** The same digest as `sourceDigest` in scripts/build-browser.mjs: name, NUL, text, NUL; sorted by name. */
async function sourceDigest(): Promise<string> {
  const files = Object.entries(sources).map(([path, text]) => [path.slice(path.lastIndexOf("/") + 1), text] as const);
  files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const bytes = new TextEncoder().encode(files.map(([name, text]) => `${name}\0${text}\0`).join(""));
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

describe("the capture page's script (src/pages/capture/browser/, bundled by scripts/build-browser.mjs)", () => {
  it("is served as a classic script with the asset headers", async () => {
    const res = await SELF.fetch(`${BASE}/c/assets/capture.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    const js = await res.text();
    expect(js).toContain('"use strict";\n(() => {');
    expect(js).not.toMatch(/^\s*(import|export)\s/m);
  });

  it("is the committed bundle of the current sources (else: npm run build:browser)", async () => {
    expect(Object.keys(sources).length).toBeGreaterThan(0);
    const js = await (await SELF.fetch(`${BASE}/c/assets/capture.js`)).text();
    const built = /sources sha256 ([0-9a-f]{64})/.exec(js.slice(0, js.indexOf("\n")))?.[1];
    expect(built, "the bundle's first line names the digest of the sources it was built from").toBeDefined();
    expect(built, "src/pages/capture/assets/capture.bundle.js is out of date: run `npm run build:browser`").toBe(
      await sourceDigest(),
    );
  });

  it("reads the shapes the server sends (contract.ts follows PageState, PhotoReceipt and AttemptOutcome)", () => {
    expectTypeOf<ServerPageState>().toExtend<PageState>();
    expectTypeOf<ServerPhotoReceipt>().toEqualTypeOf<PhotoReceipt>();
    expectTypeOf<AttemptOutcome>().toEqualTypeOf<FinishAnswer>();
  });
});
