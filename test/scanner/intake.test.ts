import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { archiveManifest, intakeArchive, memorySource } from "../../src/scanner/intake";
import { ApiError } from "../../src/lib/problem";
import { samples, zip } from "./fixtures";

async function refusal(bytes: Uint8Array): Promise<string> {
  try {
    await archiveManifest(memorySource(bytes));
  } catch (err) {
    if (err instanceof ApiError) return `${err.httpStatus} ${err.code}`;
    throw err;
  }
  return "accepted";
}

describe("files are typed by magic bytes, not by extension", () => {
  it("reports kinds, sizes and SHA-256 of every entry", async () => {
    const manifest = await archiveManifest(
      memorySource(
        zip({ "a.png": samples.canon, "scan.jpg": samples.pdf, "notes.txt": new TextEncoder().encode("hello") }),
      ),
    );
    expect(manifest.map((m) => [m.name, m.kind, m.size])).toEqual([
      ["a.png", "jpeg", samples.canon.length],
      ["scan.jpg", "pdf", samples.pdf.length],
      ["notes.txt", "unknown", 5],
    ]);
    expect(manifest[0].sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("recognises HEIC", async () => {
    const manifest = await archiveManifest(memorySource(zip({ "x.bin": samples.heic, "y.jpg": samples.nikon })));
    expect(manifest[0].kind).toBe("heic");
  });
});

describe("archive hygiene: directories and OS litter are skipped, nesting is one level", () => {
  it("skips directories, __MACOSX and ._ files", async () => {
    const bytes = zipSync({
      "photos/": new Uint8Array(0),
      "photos/a.jpg": samples.canon,
      "__MACOSX/photos/._a.jpg": new Uint8Array(10),
      ".DS_Store": new Uint8Array(4),
    });
    expect((await archiveManifest(memorySource(bytes))).map((m) => m.name)).toEqual(["photos/a.jpg"]);
  });

  it("opens a nested ZIP one level deep as outer.zip/inner.jpg", async () => {
    const inner = zip({ "inner.jpg": samples.nikon });
    const manifest = await archiveManifest(memorySource(zip({ "outer.zip": inner, "top.jpg": samples.canon })));
    expect(manifest.map((m) => m.name).sort()).toEqual(["outer.zip/inner.jpg", "top.jpg"]);
  });

  it("refuses a ZIP inside a nested ZIP", async () => {
    const deepest = zip({ "x.jpg": samples.nikon });
    expect(await refusal(zip({ "a.zip": zip({ "b.zip": deepest }) }))).toBe("422 zip-nested-too-deep");
  });
});

describe("hostile archives are refused with 422 before anything large is inflated", () => {
  it("a 42.zip-style bomb (layers of highly compressed zeros)", async () => {
    const zeros = zip({ "zeros.bin": new Uint8Array(8 * 1024 * 1024) });
    const layer = zip(Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`lib ${i.toString(16)}.zip`, zeros])));
    // Like 42.zip itself: 16 "lib N.zip" entries whose contents are compressed ~1000:1.
    expect(await refusal(layer)).toBe("422 zip-bomb");
    expect(await refusal(zeros)).toBe("422 zip-bomb");
    // One more layer is refused for its depth before any inner directory is trusted.
    expect(await refusal(zip({ "42.zip": layer }))).toBe("422 zip-nested-too-deep");
  });

  it("10,000 entries", async () => {
    const many = zipSync(
      Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}.txt`, new Uint8Array(1)])),
    );
    expect(await refusal(many)).toBe("422 zip-too-many-entries");
  });

  it("../ names and absolute paths", async () => {
    expect(await refusal(zip({ "../evil.jpg": samples.canon }))).toBe("422 zip-unsafe-name");
    expect(await refusal(zip({ "a/../../evil.jpg": samples.canon }))).toBe("422 zip-unsafe-name");
    expect(await refusal(zip({ "/etc/passwd.jpg": samples.canon }))).toBe("422 zip-unsafe-name");
    expect(await refusal(zip({ "C:/x.jpg": samples.canon }))).toBe("422 zip-unsafe-name");
  });

  it("duplicate names", async () => {
    const one = zip({ "a.jpg": samples.canon });
    // Rename the second copy of a two-entry archive so both carry the same name.
    const two = zip({ "a.jpg": samples.canon, "b.jpg": samples.nikon });
    const bytes = replaceAll(two, "b.jpg", "a.jpg");
    expect(one.length).toBeGreaterThan(0);
    expect(await refusal(bytes)).toBe("422 zip-duplicate-name");
  });

  it("encrypted entries (general purpose flag bit 0)", async () => {
    const bytes = zip({ "a.jpg": samples.canon });
    setFlagBit0(bytes);
    expect(await refusal(bytes)).toBe("422 zip-encrypted");
  });

  it("a truncated ZIP and a body that is not a ZIP", async () => {
    const bytes = zip({ "a.jpg": samples.canon, "b.jpg": samples.nikon });
    expect(await refusal(bytes.subarray(0, Math.floor(bytes.length / 2)))).toBe("422 zip-truncated");
    expect(await refusal(samples.pdf)).toBe("422 not-a-zip");
    expect(await refusal(new Uint8Array(3))).toBe("422 not-a-zip");
  });

  it("an archive without a single supported file", async () => {
    expect(await refusal(zip({ "readme.txt": new TextEncoder().encode("just text") }))).toBe(
      "422 zip-no-supported-file",
    );
  });

  it("an entry whose header understates its size", async () => {
    const bytes = zip({ "a.jpg": samples.canon, "b.jpg": samples.nikon });
    understateFirstSize(bytes);
    expect(await refusal(bytes)).toBe("422 zip-bomb");
  });
});

describe("a damaged entry is one broken file, not a failed request", () => {
  it("CRC mismatch → broken entry, the rest is read", async () => {
    const bytes = zip({ "a.jpg": samples.canon, "b.jpg": samples.nikon }, 0);
    bytes[200] ^= 0xff; // inside a.jpg's stored data
    const items = [];
    for await (const item of intakeArchive(memorySource(bytes)))
      items.push(item.ok ? item.file.name : `broken:${item.name}:${item.problem}`);
    expect(items).toEqual(["broken:a.jpg:corrupt", "b.jpg"]);
  });
});

function replaceAll(bytes: Uint8Array, from: string, to: string): Uint8Array {
  const out = bytes.slice();
  const f = new TextEncoder().encode(from);
  const t = new TextEncoder().encode(to);
  for (let i = 0; i + f.length <= out.length; i++) if (f.every((b, j) => out[i + j] === b)) out.set(t, i);
  return out;
}

function centralRecords(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i++) if (view.getUint32(i, true) === 0x02014b50) found.push(i);
  return found;
}

function setFlagBit0(bytes: Uint8Array): void {
  for (const at of centralRecords(bytes)) bytes[at + 8] |= 1;
}

function understateFirstSize(bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = centralRecords(bytes)[0];
  view.setUint32(at + 24, view.getUint32(at + 24, true) - 1000, true);
}
