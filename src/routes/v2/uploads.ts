import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../lib/app";
import { receiveUpload } from "../../scanner/transfer/uploads";
import { drain } from "../../lib/drain";
import { errorResponses, problem } from "../openapi-common";

export const uploadsRoute = createRouter();

uploadsRoute.openapi(
  createRoute({
    method: "put",
    path: "/uploads/{storage_key}",
    tags: ["file verification"],
    summary: "Signed upload target of upload_url (DESIGN §11)",
    description:
      "No API key: the query parameters expires and sig authorise the PUT. The body is streamed into storage.",
    request: {
      params: z.object({ storage_key: z.string() }),
      query: z.object({ expires: z.string(), sig: z.string() }),
      body: { content: { "application/zip": { schema: z.string().openapi({ format: "binary" }) } }, required: true },
    },
    responses: {
      200: {
        description: "Stored.",
        content: { "application/json": { schema: z.object({ storage_key: z.string(), stored: z.literal(true) }) } },
      },
      403: problem("The signature is not valid."),
      409: problem("A file was already uploaded with this link."),
      410: problem("The link has expired."),
      411: problem("Content-Length is required."),
      ...errorResponses,
    },
  }),
  async (c) => {
    const { storage_key } = c.req.valid("param");
    const body = c.req.raw.body;
    await receiveUpload(
      c.env,
      new URL(c.req.url),
      storage_key,
      c.req.header("content-type"),
      c.req.header("content-length"),
      body,
    ).catch(async (err: unknown) => {
      // Refused before reading (403, 409, 410, 411, 413, 415): drop the body first (see limitBody).
      if (body && !body.locked) await drain(body.getReader());
      throw err;
    });
    return c.json({ storage_key, stored: true as const }, 200);
  },
);
