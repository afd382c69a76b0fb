import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { requireApiKey } from "../../accounts/auth";
import { hasFeature } from "../../accounts/service";
import { limits } from "../../env";
import { createRouter, type AppEnv } from "../../lib/app";
import { clock } from "../../lib/clock";
import { ApiError, invalid } from "../../lib/problem";
import { scan, type ScanInput } from "../../scanner/execution/scan-service";
import { apiKeySecurity, errorResponses, problem } from "../openapi-common";
import { limitBody } from "../middleware";
import { parseScanHeaders } from "./headers";
import { ScanFormSchema, ScanQuerySchema, ScanResultSchema, scanHeaderParameters } from "./schema";

/** Room for the multipart envelope around a file just below the direct-upload limit. */
const MULTIPART_OVERHEAD = 64 * 1024;

const tooLargeForDirect = (max: number) =>
  new ApiError(
    413,
    "use-presigned-upload",
    `A direct upload must be below ${max} bytes. Larger ZIPs (up to 50 MB) go through the presigned flow: POST /v2/getUploadUrl, PUT the ZIP to upload_url, then POST /v2/scanner?storage_key=<storage_key>.`,
  );

const notMultipart = () =>
  new ApiError(
    415,
    "unsupported-media-type",
    'Send the ZIP as multipart/form-data in the part "file" (curl: -F file=@claim.zip), not as the raw body; or use the presigned flow: POST /v2/getUploadUrl, PUT the ZIP to its upload_url, then POST /v2/scanner?storage_key=….',
  );

/** A raw body (e.g. application/zip) without storage_key: said here, before @hono/zod-openapi's generic 415 for the undeclared type. */
const multipartOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (
    !/^multipart\/form-data/i.test(c.req.header("content-type") ?? "") &&
    hasBody(c) &&
    c.req.query("storage_key") === undefined
  )
    throw notMultipart();
  await next();
});

const hasBody = (c: Context<AppEnv>) =>
  Number(c.req.header("content-length") ?? 0) > 0 || c.req.header("transfer-encoding") !== undefined;

/** Refuses oversized direct uploads from Content-Length, or while streaming when it is absent. */
const directUploadLimit = limitBody(
  (c) => limits(c.env).directUploadMaxBytes + MULTIPART_OVERHEAD,
  (c) => tooLargeForDirect(limits(c.env).directUploadMaxBytes),
);

export const scannerRoute = createRouter();

scannerRoute.openapi(
  createRoute({
    method: "post",
    path: "/scanner",
    tags: ["file verification"],
    summary: "Analyse a ZIP of images and PDFs (spec 4.4)",
    description:
      "Exactly one of the `file` part or the `storage_key` query parameter. Response modes: multipart/mixed (default), JSON with base64 attachments (Accept: application/json), or JSON with attachmentDownloadUrl (account feature presignedDownload).",
    security: apiKeySecurity,
    middleware: [requireApiKey({ bearer: false, exactLength: 40 }), directUploadLimit, multipartOnly] as const,
    parameters: scanHeaderParameters,
    request: {
      query: ScanQuerySchema,
      body: { content: { "multipart/form-data": { schema: ScanFormSchema } }, required: false },
    },
    responses: {
      200: {
        description: "The finished result.",
        content: {
          "application/json": { schema: ScanResultSchema },
          "multipart/mixed": {
            schema: z.string().openapi({ description: "JSON part, then one ZIP part per attachment category." }),
          },
        },
      },
      202: { description: "Still running and no caller waiting; repeat after Retry-After seconds." },
      406: problem("Accept allows none of the response modes."),
      409: problem("The identical request is being analysed for a caller who is still waiting."),
      410: problem("The storage_key was already used."),
      422: problem(
        "The archive cannot be processed (not a ZIP, truncated, encrypted, a zip bomb, unsafe names, no supported file).",
      ),
      504: problem("Not finished within the timeout; the analysis goes on. Repeat in about 30 s."),
      ...errorResponses,
    },
  }),
  async (c) => {
    const account = c.get("account");
    const request = parseScanHeaders(c.req.raw.headers, clock.now(), hasFeature(account, "presignedDownload"));
    const storageKey = c.req.query("storage_key");
    const file = await directFile(c, storageKey !== undefined);
    if (file && storageKey !== undefined)
      throw invalid([{ field: "file", message: "send either the file part or storage_key, not both" }]);
    if (!file && storageKey === undefined)
      throw invalid([{ field: "file", message: "send the ZIP as multipart part file, or pass storage_key" }]);
    const input: ScanInput = file ? { kind: "direct", bytes: file } : { kind: "presigned", storageKey: storageKey! };
    return scan(c.env, account, request, input);
  },
);

/** The `file` part of a multipart body, or null when there is none. */
async function directFile(c: Context<AppEnv>, hasStorageKey: boolean): Promise<Uint8Array | null> {
  const type = c.req.header("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) {
    if (hasBody(c) && !hasStorageKey) throw notMultipart();
    return null;
  }
  const form = await c.req.parseBody().catch(() => {
    throw invalid([{ field: "file", message: "the multipart body could not be read" }]);
  });
  const file = form.file;
  if (file === undefined) return null;
  if (!(file instanceof File))
    throw invalid([{ field: "file", message: "must be a file part (the ZIP), not a text field" }]);
  const max = limits(c.env).directUploadMaxBytes;
  if (file.size >= max) throw tooLargeForDirect(max);
  return new Uint8Array(await file.arrayBuffer());
}
