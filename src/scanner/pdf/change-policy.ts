import type { DocMdpLevel, FieldLock, SignatureInfo } from "./signatures";

/**
 * What a change after signing needs, from least to most: `lta` (validation data, document
 * timestamps, document info, XMP, unused new objects), `form` (filling in fields, signing,
 * new signature fields), `annotation` (comments and other annotations). Anything else needs a
 * permission no signature can give (page content, page tree, other catalog or trailer entries).
 */
export type Permission = "lta" | "form" | "annotation";

/** The permissions in force for a revision: the certification's DocMDP and every earlier signature's locks. */
export interface ChangePolicy {
  /** DocMDP /P of a certification signature before this revision, or null (approval signatures only). */
  docMdp: DocMdpLevel | null;
  locks: { signature: string; lock: FieldLock }[];
  /** How many signatures come before this revision (0: the revision that certifies may add /Perms). */
  signaturesBefore: number;
}

/** No signature before: form filling, signing (a certification may add /Perms) and annotations are allowed. */
export const APPROVAL: ChangePolicy = { docMdp: null, locks: [], signaturesBefore: 0 };

const RANK: Record<Permission, number> = { lta: 0, form: 1, annotation: 2 };
const PERMITTED: Record<DocMdpLevel, Permission> = { 1: "lta", 2: "form", 3: "annotation" };

/** Whether the policy permits a change that needs `needs`. */
export function needsAtMost(needs: Permission, policy: ChangePolicy): boolean {
  return RANK[needs] <= RANK[policy.docMdp === null ? "annotation" : PERMITTED[policy.docMdp]];
}

/** The policy for revision `index`: every signature whose signed revision lies before it counts. */
export function policyFor(signatures: SignatureInfo[], index: number): ChangePolicy {
  const before = signatures.filter((s) => s.revision !== null && s.revision < index);
  const levels = before.map((s) => s.docMdp).filter((p): p is DocMdpLevel => p !== null);
  return {
    docMdp: levels.length > 0 ? (Math.min(...levels) as DocMdpLevel) : null,
    locks: before.flatMap((s) => (s.lock ? [{ signature: s.field ?? s.ref, lock: s.lock }] : [])),
    signaturesBefore: before.length,
  };
}
