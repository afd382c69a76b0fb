import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../lib/app";
import { openDownload } from "../../scanner/transfer/downloads";
import { errorResponses, problem } from "../openapi-common";

export const downloadsRoute = createRouter();

downloadsRoute.openapi(
  createRoute({
    method: "get",
    path: "/downloads/{id}/attachments.zip",
    tags: ["file verification"],
    summary: "attachmentDownloadUrl target (spec 4.4, DESIGN §12)",
    description:
      "No API key: the link is signed (expires, sig) and valid 12 hours; the file is deleted after 24 hours.",
    request: { params: z.object({ id: z.string() }), query: z.object({ expires: z.string(), sig: z.string() }) },
    responses: {
      200: {
        description: "attachments.zip",
        content: { "application/zip": { schema: z.string().openapi({ format: "binary" }) } },
      },
      403: problem("The signature is not valid."),
      410: problem("The link has expired or the file was deleted."),
      ...errorResponses,
    },
  }),
  async (c) => openDownload(c.env, new URL(c.req.url), c.req.valid("param").id),
);
