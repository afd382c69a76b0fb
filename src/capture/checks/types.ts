/** Outcome of one automatic check on one photo. `unknown`: the check had nothing to judge by. */
export type CheckStatus = "pass" | "fail" | "unknown";

/** A reason in plain words (English for the record; pages translate `code` with `params`: reason-texts.ts). */
export interface CheckReason {
  code: string;
  message: string;
  /** The values in the text (sizes, distances, counts); absent in records older than them. */
  params?: Record<string, string | number>;
}

/** What every check reports; stored per photo in `capture_photos.checks`. */
export interface CheckResult {
  status: CheckStatus;
  reasons: CheckReason[];
  /** Measured numbers behind the decision, language-neutral. */
  evidence: Record<string, unknown>;
}

/** Decoded pixels, row-major RGBA. */
export interface RgbaImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export const pass = (evidence: Record<string, unknown> = {}): CheckResult => ({
  status: "pass",
  reasons: [],
  evidence,
});

/** `fail` when there is at least one reason, else `pass`. */
export function fromReasons(reasons: CheckReason[], evidence: Record<string, unknown>): CheckResult {
  return { status: reasons.length > 0 ? "fail" : "pass", reasons, evidence };
}
