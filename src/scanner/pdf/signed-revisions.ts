import { policyFor, type ChangePolicy } from "./change-policy";
import { changesInRevision, type ObjectChange } from "./changes";
import { pdfLimits } from "./limits";
import { revisionsOf } from "./parsed";
import { openPdfLib } from "./pdflib";
import { findSignatures, type SignatureInfo } from "./signatures";
import { releaseRevision, revisionsWithinBudget } from "./versions";

/** One revision from the first signed one on, judged against the revision before it. */
export interface JudgedRevision {
  revision: number;
  /** Signatures whose signed revision lies before this one (their permissions applied). */
  after: string[];
  policy: ChangePolicy;
  changes: ObjectChange[];
  /** The comparison failed (damaged objects): nothing can be said about this revision. */
  failed: boolean;
}

export interface SignedRevisions {
  signatures: SignatureInfo[];
  /** The first revision a signature covers (null when no signature ends at a revision). */
  firstSigned: number | null;
  /** Revisions 2 … last, each judged against the one before (those before a signature under no permissions). */
  judged: JudgedRevision[];
  /** Revisions not compared (over the revision count or the bytes budget). */
  skipped: number[];
  total: number;
  /** Non-whitespace bytes after the last revision's %%EOF: covered by no signature. */
  trailingBytes: number;
}

const memo = new WeakMap<Uint8Array, Promise<SignedRevisions>>();

/**
 * The signatures of a file and every revision from the first signed one on, judged like pyHanko's
 * difference analysis. Shared by pdf-signatures (which reports it) and pdf-revisions (which calls
 * saves explained by signing Green), computed once per file. Throws only when pdf-lib cannot open
 * the file at all.
 */
export function signedRevisions(bytes: Uint8Array): Promise<SignedRevisions> {
  let result = memo.get(bytes);
  if (!result) {
    result = analyse(bytes);
    memo.set(bytes, result);
  }
  return result;
}

async function analyse(bytes: Uint8Array): Promise<SignedRevisions> {
  const split = revisionsOf(bytes);
  const signatures = findSignatures(await openPdfLib(bytes), bytes, split.revisions);
  const covered = signatures.map((s) => s.revision).filter((r): r is number => r !== null);
  const firstSigned = covered.length > 0 ? Math.min(...covered) : null;
  const result: SignedRevisions = {
    signatures,
    firstSigned,
    judged: [],
    skipped: [],
    total: split.revisions.length,
    trailingBytes: split.trailingBytes,
  };
  if (firstSigned === null) return result;
  const last = Math.min(split.revisions.length, pdfLimits.maxRevisions);
  const { indexes, skipped } = revisionsWithinBudget(split.revisions, 2, last);
  result.skipped = [...skipped, ...range(last + 1, split.revisions.length)];
  for (const k of indexes) {
    const policy = policyFor(signatures, k);
    const after = signatures.filter((s) => s.revision !== null && s.revision < k).map((s) => s.field ?? s.ref);
    try {
      const changes = await changesInRevision(bytes, split.revisions, k, policy);
      result.judged.push({ revision: k, after, policy, changes, failed: false });
    } catch {
      result.judged.push({ revision: k, after, policy, changes: [], failed: true });
    }
    releaseRevision(bytes, split.revisions, k - 1);
  }
  return result;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let k = from; k <= to; k++) out.push(k);
  return out;
}

/**
 * Every save is explained by signing: each revision made only changes a signature allows (before the
 * first signature: preparing signature fields; then the signature; after it what it permits).
 */
export function savesExplainedBySigning(s: SignedRevisions): boolean {
  if (s.firstSigned === null || s.skipped.length > 0 || s.trailingBytes > 0) return false;
  if (s.signatures.some((sig) => sig.problems.length > 0)) return false;
  return s.judged.every((j) => !j.failed && j.changes.every((c) => c.allowed));
}
