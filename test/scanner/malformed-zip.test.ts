import { beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount } from "../helpers";
import { samples, zip } from "./fixtures";
import { postScanner, scanCase } from "./http";

// Issue 19, item 1: every malformed ZIP header field ends in a 422 with a reason or a `-` file, never a 500.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "Malformed ZIPs" }));
});

interface Problem {
  type: string;
  detail: string;
}
interface ScanBody {
  Files: Record<string, { suspicion_level: string; findings: { code: string }[] }>;
}

const scan = (bytes: Uint8Array) =>
  postScanner({ apiKey, caseNumber: scanCase("MZ"), zip: bytes, headers: { accept: "application/json" } });

/** Offsets of every record with this signature. */
function records(bytes: Uint8Array, signature: number): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i++) if (view.getUint32(i, true) === signature) found.push(i);
  return found;
}

/** A copy with a 2- or 4-byte little-endian field overwritten. */
function patched(bytes: Uint8Array, at: number, width: 2 | 4, value: number): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  if (width === 2) view.setUint16(at, value, true);
  else view.setUint32(at, value, true);
  return out;
}

/** Stored (level 0), so the data is findable and a method change leaves the sizes intact. */
const twoFiles = () => zip({ "a.jpg": samples.canon, "b.jpg": samples.nikon }, 0);

async function expectRefusal(res: Response, code: string): Promise<Problem> {
  const body = await res.json<Problem>();
  expect({ status: res.status, type: body.type }).toEqual({ status: 422, type: `urn:capture-verify:problem:${code}` });
  expect(body.detail).not.toMatch(/at |Error/);
  return body;
}

async function expectBrokenFile(res: Response, name: string, finding: string): Promise<void> {
  expect(res.status).toBe(200);
  const body = await res.json<ScanBody>();
  expect(body.Files[name].suspicion_level).toBe("-");
  expect(body.Files[name].findings.map((f) => f.code)).toContain(finding);
  expect(body.Files["b.jpg"].suspicion_level).not.toBe("-");
}

describe("a local header whose name or extra length runs past the end of the archive is a truncated archive (422)", () => {
  it.each([
    ["name length", 26],
    ["extra length", 28],
  ])("%s 0xFFFF → 422 zip-truncated", async (_field, offset) => {
    // The reproduction: a one-file archive whose local name length is 0xFFFF.
    const bytes = patched(zip({ "a.jpg": samples.canon }), offset, 2, 0xffff);
    const body = await expectRefusal(await scan(bytes), "zip-truncated");
    expect(body.detail).toContain("a.jpg");
  });

  it("a local length that reaches into the next entry makes that file `-`, the next one is still read", async () => {
    const bytes = twoFiles();
    const second = records(bytes, LOCAL)[1];
    // Extra length up to just past the next local header: inside the archive, but contradicting the directory.
    await expectBrokenFile(
      await scan(patched(bytes, 28, 2, second - 30 - 5 - samples.canon.length + 1)),
      "a.jpg",
      "ZIP_ENTRY_CORRUPT",
    );
  });
});

describe("unusual compression methods give a `-` file or a clear 422, never a 500", () => {
  const centralMethod = (bytes: Uint8Array, method: number) =>
    patched(bytes, records(bytes, CENTRAL)[0] + 10, 2, method);
  const localMethod = (bytes: Uint8Array, method: number) => patched(bytes, 8, 2, method);

  it.each([
    ["bzip2 (12) in both headers", (b: Uint8Array) => localMethod(centralMethod(b, 12), 12)],
    ["LZMA (14) in both headers", (b: Uint8Array) => localMethod(centralMethod(b, 14), 14)],
    ["LZMA (14) in the directory only", (b: Uint8Array) => centralMethod(b, 14)],
    ["AES (99) in the local header only", (b: Uint8Array) => localMethod(b, 99)],
    ["an unknown method (0xFFFF) in the local header", (b: Uint8Array) => localMethod(b, 0xffff)],
  ])("%s → the file is `-` (ZIP_ENTRY_UNSUPPORTED_COMPRESSION)", async (_name, mutate) => {
    await expectBrokenFile(await scan(mutate(twoFiles())), "a.jpg", "ZIP_ENTRY_UNSUPPORTED_COMPRESSION");
  });

  it("deflate in the local header, stored in the directory → the file is `-` (ZIP_ENTRY_CORRUPT)", async () => {
    await expectBrokenFile(await scan(localMethod(twoFiles(), 8)), "a.jpg", "ZIP_ENTRY_CORRUPT");
  });

  it("stored in the local header, deflate in the directory → the file is `-` (ZIP_ENTRY_CORRUPT)", async () => {
    const bytes = zip({ "a.jpg": samples.canon, "b.jpg": samples.nikon });
    await expectBrokenFile(await scan(localMethod(bytes, 0)), "a.jpg", "ZIP_ENTRY_CORRUPT");
  });

  it("AES (99) in the directory → 422 zip-encrypted", async () => {
    await expectRefusal(await scan(centralMethod(twoFiles(), 99)), "zip-encrypted");
  });
});

describe("every size, offset, length, flag and method field set to 0 or 0xFF… ends in 200 or a 422 with a reason", () => {
  const base = twoFiles();
  const local = 0;
  const central = records(base, CENTRAL)[0];
  const end = records(base, END)[0];
  const fields: [string, number, 2 | 4][] = [
    // Versions, times and attributes are never read; these are the fields intake trusts or checks.
    ...[6, 8, 14, 18, 22, 26, 28].map((o): [string, number, 2 | 4] => [
      `local+${o}`,
      local + o,
      [14, 18, 22].includes(o) ? 4 : 2,
    ]),
    ...[8, 10, 16, 20, 24, 28, 30, 32, 42].map((o): [string, number, 2 | 4] => [
      `central+${o}`,
      central + o,
      [16, 20, 24, 42].includes(o) ? 4 : 2,
    ]),
    ...[4, 8, 10, 12, 16, 20].map((o): [string, number, 2 | 4] => [`end+${o}`, end + o, [12, 16].includes(o) ? 4 : 2]),
  ];
  const known = [
    "not-a-zip",
    "zip-truncated",
    "zip-multi-disk",
    "zip-too-many-entries",
    "zip-bomb",
    "zip-encrypted",
    "zip-unsafe-name",
    "zip-duplicate-name",
    "zip-no-supported-file",
  ];

  it.each(fields)("%s", async (_name, at, width) => {
    const max = width === 2 ? 0xffff : 0xffffffff;
    for (const value of [0, max]) {
      const res = await scan(patched(base, at, width, value));
      const outcome = `${at}=${value} → ${res.status}`;
      expect([200, 422], outcome).toContain(res.status);
      if (res.status === 422)
        expect(known, outcome).toContain((await res.json<Problem>()).type.replace("urn:capture-verify:problem:", ""));
      else await res.body?.cancel();
    }
  });

  it.each([
    ["size", 24],
    ["compressed size", 20],
    ["local header offset", 42],
  ])("a ZIP64 %s (0xFFFFFFFF) without a ZIP64 extra field → 422 zip-truncated", async (_field, offset) => {
    await expectRefusal(await scan(patched(base, central + offset, 4, 0xffffffff)), "zip-truncated");
  });
});
