/** Builds minimal but well-formed C2PA manifest stores (JUMBF + CBOR) for tests. */

type Cbor = number | string | Uint8Array | Cbor[] | { [k: string]: Cbor };

function head(major: number, n: number): number[] {
  if (n < 24) return [(major << 5) | n];
  if (n < 256) return [(major << 5) | 24, n];
  if (n < 65536) return [(major << 5) | 25, n >> 8, n & 255];
  return [(major << 5) | 26, (n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function encodeCbor(v: Cbor): number[] {
  if (typeof v === "number") return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === "string") {
    const b = new TextEncoder().encode(v);
    return [...head(3, b.length), ...b];
  }
  if (v instanceof Uint8Array) return [...head(2, v.length), ...v];
  if (Array.isArray(v)) return [...head(4, v.length), ...v.flatMap(encodeCbor)];
  const entries = Object.entries(v);
  return [...head(5, entries.length), ...entries.flatMap(([k, x]) => [...encodeCbor(k), ...encodeCbor(x)])];
}

function box(type: string, payload: number[]): number[] {
  const size = payload.length + 8;
  return [
    (size >>> 24) & 255,
    (size >> 16) & 255,
    (size >> 8) & 255,
    size & 255,
    ...new TextEncoder().encode(type),
    ...payload,
  ];
}

function superbox(label: string, contents: number[][]): number[] {
  const jumd = box("jumd", [...new Array(16).fill(0x11), 0x03, ...new TextEncoder().encode(label), 0]);
  return box("jumb", [...jumd, ...contents.flat()]);
}

const cborBox = (label: string, value: Cbor) => superbox(label, [box("cbor", encodeCbor(value))]);

/** A JPEG with a C2PA store in APP11 right after SOI, hash-bound to the original bytes. */
export async function withC2pa(jpeg: Uint8Array, actions: Record<string, string>[]): Promise<Uint8Array> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", jpeg));
  const build = (segmentLength: number) => {
    const assertions = superbox("c2pa.assertions", [
      cborBox("c2pa.actions", { actions }),
      cborBox("c2pa.hash.data", { exclusions: [{ start: 2, length: segmentLength }], alg: "sha256", hash }),
    ]);
    const manifest = superbox("urn:uuid:00000000-0000-0000-0000-000000000001", [
      assertions,
      cborBox("c2pa.claim", { claim_generator: "TestGen/1.0", "dc:format": "image/jpeg" }),
      cborBox("c2pa.signature", new Uint8Array(16)),
    ]);
    const store = superbox("c2pa", [manifest]);
    const payload = [0x4a, 0x50, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, ...store];
    const len = payload.length + 2;
    return [0xff, 0xeb, len >> 8, len & 255, ...payload];
  };
  // The exclusion covers the segment itself, whose size depends on the encoded length: iterate to a fixed point.
  let segment = build(0);
  while (build(segment.length).length !== segment.length) segment = build(segment.length);
  segment = build(segment.length);
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, 2));
  out.set(segment, 2);
  out.set(jpeg.subarray(2), 2 + segment.length);
  return out;
}

/** A JPEG with an XMP packet (APP1) declaring the given IPTC DigitalSourceType. */
export function withDigitalSourceType(jpeg: Uint8Array, type: string): Uint8Array {
  const xmp = `http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" Iptc4xmpExt:DigitalSourceType="${type}"/></rdf:RDF></x:xmpmeta>`;
  const body = new TextEncoder().encode(xmp);
  const len = body.length + 2;
  const out = new Uint8Array(jpeg.length + body.length + 4);
  out.set(jpeg.subarray(0, 2));
  out.set([0xff, 0xe1, len >> 8, len & 255], 2);
  out.set(body, 6);
  out.set(jpeg.subarray(2), 6 + body.length);
  return out;
}
