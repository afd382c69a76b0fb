import { createRoute } from "@hono/zod-openapi";
import { requireApiKey } from "../../accounts/auth";
import { createRouter } from "../../lib/app";
import { invalid } from "../../lib/problem";
import { createUpload } from "../../scanner/transfer/uploads";
import { apiKeySecurity, errorResponses } from "../openapi-common";
import { caseNumberErrors, caseNumberHeader } from "./headers";
import { UploadUrlSchema } from "./schema";

export const uploadUrlRoute = createRouter();

uploadUrlRoute.openapi(
  createRoute({
    method: "post",
    path: "/getUploadUrl",
    tags: ["file verification"],
    summary: "Get a signed upload URL for a ZIP of 10 to 50 MB (spec 4.3)",
    security: apiKeySecurity,
    middleware: [requireApiKey({ bearer: false, exactLength: 40 })] as const,
    parameters: [
      {
        in: "header",
        name: "caseNumber",
        required: true,
        description: "4 to 50 characters after trimming and NFC normalisation; send the same value to /v2/scanner.",
        schema: { type: "string" },
      },
    ],
    responses: {
      200: { description: "The upload URL.", content: { "application/json": { schema: UploadUrlSchema } } },
      ...errorResponses,
    },
  }),
  async (c) => {
    const caseNumber = caseNumberHeader(c.req.raw.headers);
    const errors = caseNumberErrors(caseNumber);
    if (errors.length) throw invalid(errors);
    return c.json(await createUpload(c.env, c.get("account").id, caseNumber!), 200);
  },
);
