/**
 * Seeded fuzzing of POST /v2/scanner through SELF.fetch, as a caller would send it: damaged ZIP
 * headers (local and central header fields, name lengths, names of ≥ 1000 characters, methods,
 * sizes, offsets, CRCs), damaged JPEG/PNG/PDF bytes inside valid ZIPs (bit flips, truncation,
 * duplicated segments and chunks, rewritten length fields) and the heavy inputs of
 * test/support/hostile-inputs.ts. Every answer must be a 2xx JSON body or a 4xx problem+json, never
 * a 5xx, and the service must answer a normal request afterwards. Requests are spread over several
 * accounts (per-key rate limits). Same seed, same inputs: a failure names the input to replay.
 */
import { SELF } from "cloudflare:test";
import { zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, createAccount, postJson, uniqueCaseNumber } from "../helpers";
import * as H from "../support/hostile-inputs";
import { samples, zip } from "./fixtures";
import { postScanner, scanCase } from "./http";

const SEED = 20_260_520;
/** The first 120 cases of the seed: every kind of damage (ZIP fields, long names, the four content mutations) still comes up many times; 240 took 1½ min of the suite. */
const MUTATED = 120;
const ACCOUNTS = 6;
/** Requests in flight at once (the service must also stay up under concurrent hostile requests). */
const PARALLEL = 4;

const keys: string[] = [];
beforeAll(async () => {
  for (let i = 0; i < ACCOUNTS; i++) keys.push((await createAccount()).apiKey);
}, 60_000);

const small = {
  jpg: () => H.flatJpeg(64, 48),
  camera: () => samples.canon,
  png: () => H.flatPng(48, 32),
  pdf: () => samples.pdf,
};

type Rand = () => number;
const int = (r: Rand, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rand, xs: readonly T[]) => xs[int(r, xs.length)];

/** Positions of a 4-byte signature (PK\x03\x04 local, PK\x01\x02 central, PK\x05\x06 end). */
function find(bytes: Uint8Array, sig: number): number[] {
  const out: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i++)
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === sig >> 8 && bytes[i + 3] === (sig & 255))
      out.push(i);
  return out;
}

/** Overwrites a little-endian field with a hostile value (0, max, off by one, random). */
function setField(r: Rand, bytes: Uint8Array, at: number, size: 2 | 4): void {
  const max = size === 2 ? 0xffff : 0xffffffff;
  const old =
    size === 2
      ? bytes[at] | (bytes[at + 1] << 8)
      : (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
  const value = pick(r, [0, max, old + 1, old - 1, int(r, max), 1000, 0x7fffffff & max, old * 1000])! >>> 0;
  for (let k = 0; k < size; k++) bytes[at + k] = (value >>> (8 * k)) & 255;
}

/** ZIP fields by offset from their header: [offset, size]. */
const LOCAL_FIELDS: [number, 2 | 4][] = [
  [4, 2],
  [6, 2],
  [8, 2],
  [14, 4],
  [18, 4],
  [22, 4],
  [26, 2],
  [28, 2],
];
const CENTRAL_FIELDS: [number, 2 | 4][] = [
  [6, 2],
  [8, 2],
  [10, 2],
  [16, 4],
  [20, 4],
  [24, 4],
  [28, 2],
  [30, 2],
  [32, 2],
  [42, 4],
];
const END_FIELDS: [number, 2 | 4][] = [
  [8, 2],
  [10, 2],
  [12, 4],
  [16, 4],
  [20, 2],
];

function mutateZipHeader(r: Rand, bytes: Uint8Array): string {
  const out = bytes.slice();
  const [sig, fields, label] = pick(r, [
    [0x0304, LOCAL_FIELDS, "local"],
    [0x0102, CENTRAL_FIELDS, "central"],
    [0x0506, END_FIELDS, "end"],
  ] as const);
  const at = pick(r, find(out, sig));
  if (at === undefined) return "no header";
  const [offset, size] = pick(r, fields);
  setField(r, out, at + offset, size);
  bytes.set(out);
  return `${label}+${offset}`;
}

/** JPEG segment lengths, PNG chunk lengths, PDF /Length and xref offsets: rewritten. */
function mutateLength(r: Rand, bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  if (out[0] === 0xff && out[1] === 0xd8) {
    const markers: number[] = [];
    for (let i = 2; i + 3 < out.length && markers.length < 40; i++)
      if (
        out[i] === 0xff &&
        out[i + 1] >= 0xc0 &&
        out[i + 1] !== 0xff &&
        out[i + 1] !== 0xd9 &&
        !(out[i + 1] >= 0xd0 && out[i + 1] <= 0xd7)
      )
        markers.push(i);
    const at = pick(r, markers);
    if (at !== undefined) {
      const v = pick(r, [0, 1, 2, 0xffff, int(r, 0x10000)]);
      out[at + 2] = v >> 8;
      out[at + 3] = v & 255;
    }
    return out;
  }
  if (out[0] === 0x89) {
    const at = pick(r, [8, 33, Math.max(8, out.length - 12)]);
    const v = pick(r, [0, 0x7fffffff, 0xffffffff, int(r, 1 << 20)]);
    new DataView(out.buffer).setUint32(at, v >>> 0);
    return out;
  }
  const text = new TextDecoder("latin1").decode(out);
  const replaced = text.replace(/\/Length \d+|startxref\s+\d+|\d{10} 00000 n/, (m) =>
    m.replace(/\d+/, String(pick(r, [0, 1, 999999999, int(r, out.length * 2)]))),
  );
  return Uint8Array.from(replaced, (c) => c.charCodeAt(0));
}

function mutateContent(r: Rand, bytes: Uint8Array): [string, Uint8Array] {
  const kind = pick(r, ["flip", "truncate", "duplicate", "length"] as const);
  const out = bytes.slice();
  switch (kind) {
    case "flip":
      for (let n = 1 + int(r, 16); n > 0; n--) out[int(r, out.length)] ^= 1 << int(r, 8);
      return [kind, out];
    case "truncate":
      return [kind, out.subarray(0, int(r, out.length))];
    case "duplicate": {
      const from = int(r, out.length);
      const piece = out.subarray(from, Math.min(out.length, from + 1 + int(r, 2048)));
      const at = int(r, out.length);
      return [kind, H.concat([out.subarray(0, at), piece, piece, out.subarray(at)])];
    }
    case "length":
      return [kind, mutateLength(r, out)];
  }
}

/** One fuzz case: its label and the ZIP to send. */
function fuzzCase(r: Rand, i: number): [string, Uint8Array] {
  const ext = pick(r, ["jpg", "camera", "png", "pdf"] as const);
  const name = `${ext === "camera" ? "photo" : "file"}-${i}.${ext === "camera" ? "jpg" : ext}`;
  const mode = pick(r, ["zip-header", "zip-header", "long-name", "content", "content", "content"] as const);
  if (mode === "content") {
    const [how, bytes] = mutateContent(r, small[ext]());
    return [`${name} ${how}`, zip({ [name]: bytes }, pick(r, [0, 6] as const))];
  }
  if (mode === "long-name") {
    const long = `${"verzeichnis/".repeat(int(r, 40))}${"x".repeat(1000 + int(r, 3000))}.${ext === "camera" ? "jpg" : ext}`;
    return [`long name ${long.length}`, zip({ [long]: small[ext](), "ok.jpg": small.jpg() })];
  }
  const bytes = zip({ [name]: small[ext](), "second.png": small.png() }, pick(r, [0, 6] as const));
  const what = mutateZipHeader(r, bytes);
  return [`zip ${what}`, bytes];
}

/** The heavy inputs, each in a ZIP stored (method 0): deflating them again would trip the intake's ratio check first. */
function heavyZips(): [string, Uint8Array][] {
  const stored = (name: string, bytes: Uint8Array) => zipSync({ [name]: [bytes, { level: 0 }] });
  return [
    ["content bomb 200 MB", stored("bomb.pdf", H.pdfContentBomb(200e6))],
    ["metadata bomb 200 MB", stored("xmp.pdf", H.pdfMetadataBomb(200e6))],
    ["image XObject inflating to 300 MB", stored("image.pdf", H.pdfFlateImageBomb(300e6, 100, 100))],
    ["JPEG 20000 × 20000 in a PDF", stored("scan.pdf", H.pdfWithJpeg(H.flatJpeg(20_000, 20_000), 20_000, 20_000))],
    ["lying JPEG 20000 × 20000", stored("lie.jpg", H.lyingJpeg(20_000, 20_000))],
    ["flat JPEG 20000 × 20000", stored("flat.jpg", H.flatJpeg(20_000, 20_000))],
    ["300 revisions", stored("revs.pdf", H.pdfWithRevisions(300))],
    ["PNG IDAT 300 MB", stored("idat.png", H.pngIdatBomb(300e6))],
    ["PNG zTXt 200 MB", stored("text.png", H.pngTextBomb(200e6))],
  ];
}

async function send(label: string, body: Uint8Array, key: string): Promise<string | null> {
  let res: Response;
  try {
    res = await postScanner({
      apiKey: key,
      caseNumber: scanCase("FZ"),
      zip: body,
      headers: { accept: "application/json" },
    });
  } catch (error) {
    return `${label}: fetch threw ${String(error).slice(0, 200)}`;
  }
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  if (res.status >= 500) return `${label}: ${res.status} ${text.slice(0, 200)}`;
  if (res.status >= 400 && !type.includes("application/problem+json")) return `${label}: ${res.status} with ${type}`;
  if (res.status < 300 && res.status !== 202) {
    try {
      JSON.parse(text);
    } catch {
      return `${label}: ${res.status} body is not JSON`;
    }
  }
  return null;
}

/** Runs the cases PARALLEL at a time, round-robin over the accounts; returns every failure. */
async function sendAll(cases: [string, Uint8Array][]): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      const failure = await send(`#${i} ${cases[i][0]}`, cases[i][1], keys[i % keys.length]);
      if (failure) failures.push(failure);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return failures;
}

async function normalScanWorks(key: string): Promise<void> {
  const res = await postScanner({
    apiKey: key,
    caseNumber: scanCase("OK"),
    zip: zip({ "front.jpg": samples.canon }),
    headers: { accept: "application/json" },
  });
  expect(res.status).toBe(200);
  const body = await res.json<{ Files: Record<string, { suspicion_level: string }> }>();
  expect(Object.keys(body.Files)).toContain("front.jpg");
}

describe("POST /v2/scanner under seeded fuzzing", () => {
  it(`${MUTATED} mutated archives: no 5xx, 2xx JSON or 4xx problem+json`, async () => {
    const r = H.prng(SEED);
    const cases = Array.from({ length: MUTATED }, (_, i) => fuzzCase(r, i));
    expect(await sendAll(cases)).toEqual([]);
    await normalScanWorks(keys[0]);
  }, 600_000);

  it("the heavy inputs: no 5xx, and the service answers afterwards", async () => {
    expect(await sendAll(heavyZips())).toEqual([]);
    // The compression bomb is "-" with a finding that says why (it used to come back Green).
    const [, bomb] = heavyZips()[0];
    const res = await postScanner({
      apiKey: keys[1],
      caseNumber: scanCase("BOMB"),
      zip: bomb,
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(200);
    const body = await res.json<{ Files: Record<string, { suspicion_level: string; findings: { code: string }[] }> }>();
    expect(body.Files["bomb.pdf"].suspicion_level).toBe("-");
    expect(body.Files["bomb.pdf"].findings.map((f) => f.code)).toContain("PDF_UNPACK_BUDGET_EXCEEDED");
    await normalScanWorks(keys[1]);
  }, 600_000);
});

describe("one account's heavy inputs do not break another account's requests", () => {
  it("capture cases and small scans of a second account all succeed meanwhile", async () => {
    const heavy = heavyZips().filter(([label]) => /bomb|20000|300/.test(label));
    const attacker = keys[2];
    const victim = keys[3];
    const attack = Promise.all(heavy.map(([label, body]) => send(label, body, attacker)));
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const link = await postJson("/capture/link", { caseNumber: uniqueCaseNumber("VICTIM") }, { "x-api-key": victim });
      if (link.status !== 201) outcomes.push(`capture/link ${link.status}: ${(await link.text()).slice(0, 200)}`);
      const scan = await postScanner({
        apiKey: victim,
        caseNumber: scanCase("VICTIM"),
        zip: zip({ [`v${i}.jpg`]: H.flatJpeg(64, 64), "doc.pdf": samples.pdf }),
        headers: { accept: "application/json" },
      });
      if (scan.status !== 200) outcomes.push(`scan ${scan.status}: ${(await scan.text()).slice(0, 200)}`);
      else await scan.arrayBuffer();
    }
    expect(outcomes).toEqual([]);
    expect((await attack).filter((x) => x !== null)).toEqual([]);
    expect((await SELF.fetch(`${BASE}/openapi.json`)).status).toBe(200);
  }, 600_000);
});
