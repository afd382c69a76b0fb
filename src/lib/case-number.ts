/**
 * The one rule for case numbers, applied at every entry point (capture create, status and
 * retrigger; the scanner's and getUploadUrl's `caseNumber` header): surrounding whitespace is
 * dropped and the text is put in Unicode NFC. So `"  SCH-1 "` and `"SCH-1"`, or a decomposed
 * "ä" (a + U+0308) and a precomposed one, name the same case wherever they are sent.
 */
export function normalizeCaseNumber(value: string): string {
  return value.trim().normalize("NFC");
}
