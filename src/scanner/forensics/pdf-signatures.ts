import { finding } from "../finding";
import type { Analyzer, AnalyzerResult, Finding, Language, ScanContext, ScanFile } from "../types";
import { indexOfBytes } from "../pdf/bytes";
import { pdfReadable } from "../pdf/stream-budget";
import { signedRevisions, type SignedRevisions } from "../pdf/signed-revisions";
import type { SignatureInfo } from "../pdf/signatures";
import { allowedAfterText, changedAfterText, coverageTexts as C, signatureTexts as T } from "./pdf-signatures-texts";

/**
 * Signatures and what happened after them, judged like pyHanko's difference analysis: each
 * signature's /ByteRange must cover its whole revision except its own value, and every later
 * revision is classified object by object against the DocMDP/FieldMDP permissions of the
 * signatures before it. Allowed additions are Green with what they were; anything no signature
 * permits is Red and named. (The CMS signature value itself is not verified cryptographically.)
 */
export const pdfSignatures: Analyzer = {
  id: "pdf-signatures",
  version: "2.0.0",
  appliesTo: (file) => file.kind === "pdf",
  async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
    const lang = ctx.language;
    // Too large, no header or over its unpack budget: pdf-structure's finding says so once for all.
    if (!pdfReadable(file.bytes)) return { assessed: false, findings: [] };
    let signed: SignedRevisions;
    try {
      signed = await signedRevisions(file.bytes);
    } catch (e) {
      // An unsigned file pdf-lib cannot open is pdf-structure's business; a /ByteRange makes it ours.
      if (!hasByteRange(file.bytes)) return { assessed: false, findings: [] };
      return {
        assessed: false,
        findings: [finding(lang, "PDF_SIGNATURES_UNREADABLE", "-", T.unreadable, { reason: String(e).slice(0, 200) })],
      };
    }
    const { signatures } = signed;
    if (signatures.length === 0) return { assessed: true, findings: [], metadata: { signatures: 0 } };
    const findings = [...signatures.flatMap((s) => coverageFindings(lang, s)), ...tailFindings(lang, signed)];
    findings.push(...afterSigningFindings(lang, signed));
    return { assessed: true, findings, metadata: { signatures: signatures.map(summary) } };
  },
};

function summary(s: SignatureInfo) {
  return {
    kind: s.kind,
    field: s.field,
    signer: s.signer,
    signedAt: s.signedAt,
    subFilter: s.subFilter,
    byteRange: s.byteRange,
    revision: s.revision,
    certification: s.docMdp !== null ? { docMdp: s.docMdp } : null,
    lock: s.lock,
  };
}

function afterSigningFindings(lang: Language, signed: SignedRevisions): Finding[] {
  const after = signed.judged.filter((j) => j.after.length > 0);
  const out: Finding[] = [];
  for (const j of after) {
    const disallowed = j.changes.filter((c) => !c.allowed);
    if (disallowed.length === 0) continue;
    out.push(
      finding(
        lang,
        "PDF_CHANGED_AFTER_SIGNATURE",
        "Red",
        changedAfterText(j.revision, j.after, disallowed, j.policy.docMdp),
        {
          revision: j.revision,
          afterSignatures: j.after,
          docMdp: j.policy.docMdp,
          changes: disallowed.slice(0, 30),
        },
      ),
    );
  }
  const unchecked = [...after.filter((j) => j.failed).map((j) => j.revision), ...signed.skipped];
  if (unchecked.length > 0)
    out.push(
      finding(lang, "PDF_SIGNATURE_CHANGES_NOT_CHECKED", "Yellow", T.notChecked, {
        revisions: unchecked,
        total: signed.total,
      }),
    );
  if (out.length > 0) return out;
  const signedRevisions = signed.signatures.map((s) => s.revision);
  if (after.length > 0) {
    const changes = after.flatMap((j) => j.changes);
    const docMdp = after[after.length - 1].policy.docMdp;
    return [
      finding(
        lang,
        "PDF_ALLOWED_CHANGES_AFTER_SIGNATURE",
        "Green",
        allowedAfterText(
          after.map((j) => j.revision),
          changes,
          docMdp,
        ),
        {
          signedRevisions,
          docMdp,
          changes: after
            .flatMap((j) =>
              j.changes.map((c) => ({
                revision: j.revision,
                kind: c.kind,
                ref: c.ref,
                needs: c.needs,
                detail: c.detail,
              })),
            )
            .slice(0, 30),
        },
      ),
    ];
  }
  if (signed.signatures.some((s) => s.problems.length > 0) || signed.trailingBytes > 0) return [];
  return [finding(lang, "PDF_SIGNED_UNCHANGED", "Green", T.unchanged, { signedRevisions })];
}

function coverageFindings(lang: Language, s: SignatureInfo): Finding[] {
  return s.problems.map((p) => {
    const evidence = { signature: s.ref, field: s.field, byteRange: s.byteRange, ...p };
    switch (p.kind) {
      case "not-from-start":
      case "gap-not-contents":
        return finding(lang, "PDF_SIGNATURE_GAP", "Red", C.gap, evidence);
      case "tail-uncovered":
        return finding(lang, "PDF_SIGNATURE_TAIL_UNCOVERED", "Red", C.tail, evidence);
      case "empty-signature":
        return finding(lang, "PDF_SIGNATURE_EMPTY", "Yellow", C.empty, evidence);
      default:
        return finding(lang, "PDF_SIGNATURE_BYTE_RANGE_INVALID", "Red", C.invalid, evidence);
    }
  });
}

/** Bytes after the last revision of a signed file belong to no signature and to no analysable update. */
function tailFindings(lang: Language, signed: SignedRevisions): Finding[] {
  if (signed.trailingBytes === 0) return [];
  return [finding(lang, "PDF_SIGNATURE_TAIL_UNCOVERED", "Red", C.tail, { trailingBytes: signed.trailingBytes })];
}

function hasByteRange(bytes: Uint8Array): boolean {
  return indexOfBytes(bytes, "/ByteRange") >= 0;
}
