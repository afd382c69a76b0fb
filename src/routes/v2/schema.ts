import { z } from "@hono/zod-openapi";
import { type FindingCode, findingCodeList, findingCodesTable } from "../../scanner/finding-codes";

/** Spec 2.5. */
export const UploadUrlSchema = z
  .object({
    upload_url: z.url().openapi({ description: "Signed PUT URL (Content-Type: application/zip); valid 10 minutes." }),
    storage_key: z.string().openapi({ description: "Pass as query parameter storage_key to POST /v2/scanner." }),
  })
  .openapi("UploadUrl");

const Level = z.enum(["-", "Green", "Yellow", "Red"]);

/** Every finding code, with its levels and meaning, from the one registry (src/scanner/finding-codes.ts). */
const FindingCodeSchema = z.enum(findingCodeList as [FindingCode, ...FindingCode[]]).openapi("FindingCode", {
  description: `A stable UPPER_SNAKE identifier (AREA_WHAT) that integrations can key on; title and explanation are in the request's language, the code is the same in every language.\n\n${findingCodesTable()}`,
});

const FindingSchema = z.object({
  code: FindingCodeSchema,
  level: Level,
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

/** A finding about several files of the request (docs/reverse-search.md lists the codes). */
const CrossFindingSchema = z
  .object({
    code: FindingCodeSchema,
    level: Level,
    title: z.string(),
    explanation: z.string().openapi({ description: "In the request's language." }),
    files: z.array(z.string()),
    evidence: z.record(z.string(), z.unknown()),
  })
  .openapi("CrossFileFinding");

const DocumentFieldsSchema = z.object({
  documentDate: z
    .string()
    .nullable()
    .openapi({ description: "Labelled document/invoice date (YYYY-MM-DD), else the first date." }),
  dates: z.array(z.string()),
  total: z.number().nullable().openapi({ description: "Labelled total amount." }),
  amounts: z.array(z.number()),
  ibans: z.array(z.string()).openapi({ description: "IBANs whose check digits are valid." }),
  invoiceNumbers: z.array(z.string()),
  names: z.array(z.string()),
  licencePlates: z.array(z.string()),
});

/** `cross_file_analyses` (add-on crossFileAnalyses; docs/reverse-search.md). */
export const CrossFileAnalysesSchema = z
  .object({
    comparedFiles: z.number().int(),
    identicalFiles: z.array(z.object({ sha256: z.string(), files: z.array(z.string()) })),
    nearDuplicateImages: z.array(
      z.object({
        files: z.array(z.string()).length(2),
        dctDistance: z.number().int().openapi({ description: "Hamming distance of the 64-bit DCT hashes." }),
        blockMeanDistance: z.number().int(),
        mirrored: z.boolean(),
      }),
    ),
    cameras: z.array(
      z.object({
        make: z.string().nullable(),
        model: z.string().nullable(),
        serial: z.string().nullable(),
        quantTables: z.string().nullable().openapi({ description: "Fingerprint of the JPEG luma quantisation table." }),
        files: z.array(z.string()),
      }),
    ),
    captures: z.array(
      z.object({
        file: z.string(),
        capturedAt: z.string().nullable().openapi({ description: "EXIF DateTimeOriginal (camera local time)." }),
        gps: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
      }),
    ),
    documents: z.array(
      z.object({
        file: z.string(),
        producer: z.string().nullable(),
        creator: z.string().nullable(),
        creationDate: z.string().nullable(),
        fields: DocumentFieldsSchema.nullable().openapi({
          description: "Read from the PDF's text; null without text.",
        }),
      }),
    ),
    findings: z.array(CrossFindingSchema),
  })
  .openapi("CrossFileAnalyses");

/** `agenticRecommendation` (add-on; fixed rules, docs/reverse-search.md). */
export const RecommendationSchema = z
  .object({
    action: z.enum(["refer_to_fraud_unit", "request_on_site_inspection", "ask_for_originals", "settle"]),
    summary: z.string().openapi({ description: "In the request's language." }),
    reasons: z.array(
      z.object({
        code: FindingCodeSchema,
        level: Level,
        files: z.array(z.string()),
        text: z.string(),
      }),
    ),
    filesNotAssessed: z.array(z.string()),
    rules: z.string().openapi({ description: "Version of the rule set that chose the action." }),
  })
  .openapi("AgenticRecommendation");

/** Spec 2.6. */
export const ScanResultSchema = z
  .object({
    suspicion_level: z.enum(["-", "Green", "Yellow", "Red"]),
    Files: z.record(z.string(), FileResultSchema),
    caseNumber: z.string(),
    sessionId: z.uuid(),
    modelVersions: z.record(z.string(), z.string()),
    tokensConsumed: z.number().int(),
    cross_file_analyses: CrossFileAnalysesSchema.nullable().optional(),
    agenticRecommendation: RecommendationSchema.nullable().optional(),
    attachmentDownloadUrl: z.url().nullable().optional(),
    pdfReportMapping: z
      .record(z.string(), z.number().int().min(1))
      .nullable()
      .optional()
      .openapi({
        description:
          "Account feature pdfReportMapping: each filename of Files (extracted images included) → the 1-based page of the analysis report (attachments.analysis_report) where its detail view starts; {} when no report was generated. docs/reports.md.",
        example: { "kitchen.jpg": 2, "invoice.pdf": 5, "invoice.pdf#p1-1.jpg": 7 },
      }),
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
