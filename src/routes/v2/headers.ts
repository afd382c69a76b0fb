import { z } from "@hono/zod-openapi";
import { normalizeCaseNumber } from "../../lib/case-number";
import { invalid, ApiError, type FieldError } from "../../lib/problem";
import { parseIssueDate } from "../../scanner/issue-date";
import type { ScanRequest } from "../../scanner/execution/scan-service";
import { languages, type Language } from "../../scanner/types";
import type { ResponseMode } from "../../scanner/response/deliver-result";

const email = z.email();

/** The `caseNumber` header, normalised (trim, NFC) as on every entry point; undefined when absent. */
export function caseNumberHeader(headers: Headers): string | undefined {
  const raw = headers.get("caseNumber");
  return raw === null ? undefined : normalizeCaseNumber(raw);
}

/** caseNumber of spec 4.4 (already normalised): 4 to 50 characters, no control characters. */
export function caseNumberErrors(value: string | undefined): FieldError[] {
  if (value === undefined || value === "") return [{ field: "caseNumber", message: "is required" }];
  const length = [...value].length;
  if (length < 4 || length > 50) return [{ field: "caseNumber", message: "must be 4 to 50 characters" }];
  if (/[\u0000-\u001f\u007f]/.test(value))
    return [{ field: "caseNumber", message: "must not contain control characters" }];
  return [];
}

/** Every header rule of spec 4.4 at once; all violations are reported together. */
export function parseScanHeaders(headers: Headers, now: Date, presignedDownload: boolean): ScanRequest {
  const errors: FieldError[] = [];
  const caseNumber = caseNumberHeader(headers);
  errors.push(...caseNumberErrors(caseNumber));

  let issueDate: Date | null = null;
  const rawDate = headers.get("issueDate");
  if (rawDate !== null) {
    const parsed = parseIssueDate(rawDate, now);
    if (parsed.ok) issueDate = parsed.date;
    else errors.push({ field: "issueDate", message: parsed.message });
  }

  const rawLanguage = headers.get("language")?.toLowerCase() ?? "de";
  if (!(languages as readonly string[]).includes(rawLanguage))
    errors.push({ field: "language", message: "must be de, en or pl" });

  const contactEmail = headers.get("contactEmail");
  if (contactEmail !== null && !email.safeParse(contactEmail).success)
    errors.push({ field: "contactEmail", message: "must be an e-mail address" });

  if (errors.length) throw invalid(errors);
  const mode = negotiate(headers.get("accept"));
  if (!mode && !presignedDownload) {
    throw new ApiError(406, "not-acceptable", "Accept must allow application/json, multipart/mixed or */*.");
  }
  return { caseNumber: caseNumber!, issueDate, language: rawLanguage as Language, contactEmail, mode: mode ?? "json" };
}

/** Spec 4.4 response modes: multipart unless the caller prefers application/json. */
export function negotiate(accept: string | null): ResponseMode | null {
  if (!accept || accept.trim() === "") return "multipart";
  const ranges = accept
    .split(",")
    .map((part, index) => {
      const [type, ...params] = part.trim().toLowerCase().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { type: type.trim(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    if (range.type === "multipart/mixed" || range.type === "multipart/*" || range.type === "*/*") return "multipart";
    if (range.type === "application/json" || range.type === "application/*") return "json";
  }
  return null;
}
