import { z } from "@hono/zod-openapi";

/** Spec 2.5. */
export const UploadUrlSchema = z
  .object({
    upload_url: z.url().openapi({ description: "Signed PUT URL (Content-Type: application/zip); valid 10 minutes." }),
    storage_key: z.string().openapi({ description: "Pass as query parameter storage_key to POST /v2/scanner." }),
  })
  .openapi("UploadUrl");

const FindingSchema = z.object({
  code: z.string(),
  level: z.string(),
  title: z.string(),
  explanation: z.string(),
  evidence: z.record(z.string(), z.unknown()),
});

/** DESIGN §18. */
export const FileResultSchema = z
  .object({
    suspicion_level: z.enum(["-", "Green", "Yellow", "Red"]),
    type: z.enum(["image", "pdf", "other"]),
    mimeType: z.string(),
    sha256: z.string().nullable(),
    size: z.number().int(),
    source: z.object({ parent: z.string(), page: z.number().int() }).optional(),
    findings: z.array(FindingSchema),
    metadata: z.record(z.string(), z.unknown()),
    attachments: z.array(z.string()).openapi({ description: "<category>/<name> of this file's attachments." }),
  })
  .openapi("FileResult");

/** Spec 2.6. */
export const ScanResultSchema = z
  .object({
    suspicion_level: z.enum(["-", "Green", "Yellow", "Red"]),
    Files: z.record(z.string(), FileResultSchema),
    caseNumber: z.string(),
    sessionId: z.uuid(),
    modelVersions: z.record(z.string(), z.string()),
    tokensConsumed: z.number().int(),
    cross_file_analyses: z.record(z.string(), z.unknown()).nullable().optional(),
    agenticRecommendation: z.record(z.string(), z.unknown()).nullable().optional(),
    attachmentDownloadUrl: z.url().nullable().optional(),
    pdfReportMapping: z.record(z.string(), z.number().int()).nullable().optional(),
    etag: z.string().nullable(),
    pdfEditingToolsBlacklist: z.array(z.string()).nullable(),
    attachments: z
      .record(
        z.string(),
        z.array(
          z.object({
            name: z.string(),
            contentType: z.string(),
            size: z.number().int(),
            data: z.string().openapi({ format: "byte" }),
          }),
        ),
      )
      .optional(),
  })
  .openapi("ScanResult");

export const ScanQuerySchema = z.object({
  storage_key: z
    .string()
    .optional()
    .openapi({ description: "The key from POST /v2/getUploadUrl (ZIPs of 10 MB to 50 MB)." }),
});

export const ScanFormSchema = z.object({
  file: z.any().optional().openapi({ type: "string", format: "binary", description: "The ZIP archive (below 10 MB)." }),
});

const header = (name: string, description: string, required = false) => ({
  in: "header" as const,
  name,
  required,
  description,
  schema: { type: "string" as const },
});

/** The headers of spec 4.4, documented here and validated by parseScanHeaders (all violations at once). */
export const scanHeaderParameters = [
  header("caseNumber", "4 to 50 characters.", true),
  header(
    "issueDate",
    "DD.MM.YYYY, DD-MM-YYYY, DD/MM/YYYY, YYYY-MM-DD or YYYY.MM.DD, optionally followed by HH:MM:SS; not more than 5 days ahead.",
  ),
  header("language", "de, en or pl; default de."),
  header("contactEmail", "Contact address for result notifications."),
  header("Accept", "application/json, multipart/mixed or */* (default multipart/mixed)."),
];
