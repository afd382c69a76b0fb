import { sha256Hex } from "../../lib/crypto";

/** What makes two scanner requests "identical" (DESIGN §9). */
export interface DigestInput {
  accountId: string;
  caseNumber: string;
  /** The normalised issueDate (ISO) or null. */
  issueDate: string | null;
  language: string;
  /** One entry per file of the archive: its SHA-256 (or a stand-in for a file that could not be extracted). */
  fileHashes: string[];
}

/**
 * SHA-256 over account, caseNumber, issueDate, language and the SORTED file digests: file names,
 * their order and the ZIP container (compression, timestamps) do not matter, the contents do.
 */
export async function requestDigest(input: DigestInput): Promise<string> {
  const canonical = JSON.stringify([
    input.accountId,
    input.caseNumber,
    input.issueDate,
    input.language,
    [...input.fileHashes].sort(),
  ]);
  return sha256Hex(canonical);
}
