import { z } from "@hono/zod-openapi";

/** RFC 9457 problem body (DESIGN §2), shared by every route's error responses. */
export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().optional(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .passthrough()
  .openapi("Problem");

/** An error response of a route definition: a problem+json body with this description. */
export const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: ProblemSchema } },
});

/** Error responses spread into every route definition. */
export const errorResponses = {
  400: problem("Invalid input (headers, query or body)."),
  401: problem("Missing or unknown API key."),
  404: problem("Not found, or owned by another account."),
  413: problem("Body too large."),
  415: problem("Wrong content type."),
  500: problem("Internal error; quote the request id."),
} as const;

type Security = Record<string, string[]>[];
export const apiKeySecurity: Security = [{ apiKeyAuth: [] }];
export const captureSecurity: Security = [{ apiKeyAuth: [] }, { captureBearerAuth: [] }];
