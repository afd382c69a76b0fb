/**
 * Reading a C2PA manifest store: active manifest, claim generator, actions, ingredients, and the
 * hard-binding check (c2pa.hash.data: SHA-2 over the file minus the declared exclusions). The
 * COSE signature is located but not verified against a trust list (reported as such).
 */
import { type CborValue, decodeCbor } from "./cbor";
import { findJumbf, type JumbfBox, parseJumbf } from "./jumbf";

/** What a C2PA manifest says about the file. */
export interface C2paSummary {
  manifests: number;
  activeManifest: string;
  claimGenerator: string | null;
  actions: { action: string; digitalSourceType?: string; softwareAgent?: string }[];
  ingredients: string[];
  signaturePresent: boolean;
  /** true/false when a c2pa.hash.data binding was checked, null when there is none or it is unreadable. */
  hashMatches: boolean | null;
  hashAlgorithm: string | null;
  problems: string[];
}

const asRecord = (v: CborValue): Record<string, CborValue> =>
  v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Uint8Array) ? (v as Record<string, CborValue>) : {};
const asString = (v: CborValue): string | undefined => (typeof v === "string" ? v : undefined);

function content(box: JumbfBox): CborValue {
  const cbor = box.contents.find((c) => c.type === "cbor");
  if (cbor) return decodeCbor(cbor.data);
  const json = box.contents.find((c) => c.type === "json");
  return json ? (JSON.parse(new TextDecoder().decode(json.data)) as CborValue) : null;
}

function generatorName(claim: Record<string, CborValue>): string | null {
  const direct = asString(claim.claim_generator);
  if (direct) return direct;
  const info = claim.claim_generator_info;
  const first = Array.isArray(info) ? asRecord(info[0]) : asRecord(info ?? null);
  const name = asString(first.name);
  return name ? [name, asString(first.version)].filter(Boolean).join(" ") : null;
}

async function checkHash(
  bytes: Uint8Array,
  binding: Record<string, CborValue>,
  claimAlg: string | undefined,
): Promise<{ ok: boolean | null; alg: string | null }> {
  const expected = binding.hash;
  if (!(expected instanceof Uint8Array)) return { ok: null, alg: null };
  const alg = (asString(binding.alg) ?? claimAlg ?? "sha256").toLowerCase();
  const subtleName = { sha256: "SHA-256", sha384: "SHA-384", sha512: "SHA-512" }[alg];
  if (!subtleName) return { ok: null, alg };
  const exclusions = (Array.isArray(binding.exclusions) ? binding.exclusions : [])
    .map((e) => asRecord(e))
    .map((e) => ({ start: Number(e.start), length: Number(e.length) }))
    .filter((e) => Number.isFinite(e.start) && Number.isFinite(e.length))
    .sort((a, b) => a.start - b.start);
  // Copy everything outside the exclusions (bounded by the file size), then hash it in one go.
  const kept = new Uint8Array(bytes.length);
  let o = 0;
  let p = 0;
  for (const e of exclusions) {
    const start = Math.min(Math.max(e.start, p), bytes.length);
    kept.set(bytes.subarray(p, start), o);
    o += start - p;
    p = Math.min(bytes.length, Math.max(p, e.start + e.length));
  }
  kept.set(bytes.subarray(p), o);
  o += bytes.length - p;
  const digest = new Uint8Array(await crypto.subtle.digest(subtleName, kept.subarray(0, o)));
  return { ok: digest.length === expected.length && digest.every((b, i) => b === expected[i]), alg };
}

/** Reads the C2PA manifest store of a JPEG/PNG; null when there is none. */
export async function readC2pa(bytes: Uint8Array): Promise<C2paSummary | null> {
  const location = findJumbf(bytes);
  if (!location) return null;
  const store = parseJumbf(location.store);
  const summary: C2paSummary = {
    manifests: 0,
    activeManifest: "",
    claimGenerator: null,
    actions: [],
    ingredients: [],
    signaturePresent: false,
    hashMatches: null,
    hashAlgorithm: null,
    problems: [],
  };
  if (store?.label !== "c2pa") {
    summary.problems.push("JUMBF present but no C2PA manifest store");
    return summary;
  }
  summary.manifests = store.children.length;
  const active = store.children[store.children.length - 1];
  if (!active) return summary;
  summary.activeManifest = active.label;
  const part = (label: string) => active.children.find((c) => c.label === label || c.label.startsWith(`${label}.`));
  try {
    const claimBox = part("c2pa.claim");
    const claim = claimBox ? asRecord(content(claimBox)) : {};
    summary.claimGenerator = generatorName(claim);
    summary.signaturePresent = Boolean(part("c2pa.signature"));
    const assertions = part("c2pa.assertions")?.children ?? [];
    for (const a of assertions) {
      if (a.label.startsWith("c2pa.actions")) {
        const list = asRecord(content(a)).actions;
        for (const act of Array.isArray(list) ? list : []) {
          const r = asRecord(act);
          const agent = r.softwareAgent;
          summary.actions.push({
            action: asString(r.action) ?? "?",
            digitalSourceType: asString(r.digitalSourceType),
            softwareAgent: asString(agent) ?? asString(asRecord(agent ?? null).name),
          });
        }
      } else if (a.label.startsWith("c2pa.ingredient")) {
        const r = asRecord(content(a));
        summary.ingredients.push(asString(r["dc:title"]) ?? asString(r.relationship) ?? "ingredient");
      } else if (a.label === "c2pa.hash.data") {
        const check = await checkHash(bytes, asRecord(content(a)), asString(claim.alg));
        summary.hashMatches = check.ok;
        summary.hashAlgorithm = check.alg;
      }
    }
  } catch (e) {
    summary.problems.push(e instanceof Error ? e.message : String(e));
  }
  return summary;
}
