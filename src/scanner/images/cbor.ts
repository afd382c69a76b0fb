/** Minimal CBOR (RFC 8949) decoder for C2PA claims and assertions: maps, arrays, strings, bytes, ints, floats, tags. */

/** A decoded CBOR value. */
export type CborValue =
  | number
  | bigint
  | string
  | boolean
  | null
  | undefined
  | Uint8Array
  | CborValue[]
  | { [key: string]: CborValue }
  | { tag: number; value: CborValue };

class Reader {
  pos = 0;
  constructor(readonly b: Uint8Array) {}
  byte(): number {
    if (this.pos >= this.b.length) throw new Error("CBOR: unexpected end");
    return this.b[this.pos++];
  }
  take(n: number): Uint8Array {
    if (this.pos + n > this.b.length) throw new Error("CBOR: unexpected end");
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

function argument(r: Reader, info: number): number {
  if (info < 24) return info;
  if (info === 24) return r.byte();
  if (info === 25) return (r.byte() << 8) | r.byte();
  if (info === 26) return ((r.byte() << 24) | (r.byte() << 16) | (r.byte() << 8) | r.byte()) >>> 0;
  if (info === 27) {
    const hi = ((r.byte() << 24) | (r.byte() << 16) | (r.byte() << 8) | r.byte()) >>> 0;
    const lo = ((r.byte() << 24) | (r.byte() << 16) | (r.byte() << 8) | r.byte()) >>> 0;
    return hi * 2 ** 32 + lo;
  }
  if (info === 31) return -1; // indefinite length
  throw new Error("CBOR: bad additional info");
}

function halfFloat(h: number): number {
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  const v = exp === 0 ? frac * 2 ** -24 : exp === 31 ? (frac ? NaN : Infinity) : (1 + frac / 1024) * 2 ** (exp - 15);
  return h & 0x8000 ? -v : v;
}

function item(r: Reader, depth: number): CborValue {
  if (depth > 64) throw new Error("CBOR: too deep");
  const first = r.byte();
  const major = first >> 5;
  const info = first & 31;
  if (major === 7) {
    if (info === 20) return false;
    if (info === 21) return true;
    if (info === 22) return null;
    if (info === 23) return undefined;
    if (info === 25) return halfFloat(argument(r, 25));
    if (info === 26) return new DataView(r.take(4).slice().buffer).getFloat32(0);
    if (info === 27) return new DataView(r.take(8).slice().buffer).getFloat64(0);
    return info;
  }
  const n = argument(r, info);
  switch (major) {
    case 0:
      return n;
    case 1:
      return -1 - n;
    case 2:
    case 3: {
      let bytes: Uint8Array;
      if (n >= 0) bytes = r.take(n);
      else {
        const parts: Uint8Array[] = [];
        while (r.b[r.pos] !== 0xff) parts.push(item(r, depth + 1) as Uint8Array);
        r.pos++;
        bytes = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
        let o = 0;
        for (const p of parts) {
          bytes.set(typeof p === "string" ? new TextEncoder().encode(p) : p, o);
          o += p.length;
        }
      }
      return major === 2 ? bytes : new TextDecoder().decode(bytes);
    }
    case 4: {
      const arr: CborValue[] = [];
      if (n >= 0) for (let i = 0; i < n; i++) arr.push(item(r, depth + 1));
      else {
        while (r.b[r.pos] !== 0xff) arr.push(item(r, depth + 1));
        r.pos++;
      }
      return arr;
    }
    case 5: {
      const obj: { [key: string]: CborValue } = {};
      const read = () => {
        const k = item(r, depth + 1);
        obj[String(k)] = item(r, depth + 1);
      };
      if (n >= 0) for (let i = 0; i < n; i++) read();
      else {
        while (r.b[r.pos] !== 0xff) read();
        r.pos++;
      }
      return obj;
    }
    default:
      return { tag: n, value: item(r, depth + 1) };
  }
}

/** Decodes the first CBOR item of `bytes`; throws on malformed input. */
export function decodeCbor(bytes: Uint8Array): CborValue {
  return item(new Reader(bytes), 0);
}
