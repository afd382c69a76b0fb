import { createRoute, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { createRouter, type AppEnv } from "../../lib/app";
import { ApiError, invalid } from "../../lib/problem";
import { timingSafeEqual } from "../../lib/crypto";
import { createAccount, createHandler, issueApiKey, removeHandler, updateAccount } from "../../accounts/service";
import { errorResponses } from "../openapi-common";
import { pushTargetProblem } from "../../capture/push/target";
import type { Env } from "../../env";
import {
  AccountCreateSchema,
  AccountCreatedSchema,
  AccountIdParam,
  AccountPatchSchema,
  HandlerCreateSchema,
  HandlerIdParam,
} from "./schema";

/** Admin API (DESIGN §6): `Authorization: Bearer <ADMIN_TOKEN>`; absent token = disabled. */
const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const token = c.env.ADMIN_TOKEN;
  if (!token) throw new ApiError(404, "not-found", "The admin API is disabled.");
  const presented = c.req.header("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? "";
  if (!timingSafeEqual(presented, token)) {
    throw new ApiError(401, "unauthorized", "Admin token required.", {
      headers: { "WWW-Authenticate": 'Bearer realm="admin"' },
    });
  }
  await next();
});

/** A push URL this deployment would refuse to call is refused when it is set, not only at the first close. */
function checkPushTarget(env: Env, push: { url: string } | null | undefined) {
  const problem = push ? pushTargetProblem(push.url, env) : null;
  if (problem) throw invalid([{ field: "push.url", message: problem }], "The push URL is not allowed.");
}

const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } }, required: true });
const security = [{ adminBearerAuth: [] }];

export const adminRoutes = createRouter();
adminRoutes.use("*", requireAdmin);

adminRoutes.openapi(
  createRoute({
    method: "post",
    path: "/accounts",
    tags: ["admin"],
    security,
    request: { body: json(AccountCreateSchema) },
    responses: {
      201: {
        description: "Created; the key is shown once.",
        content: { "application/json": { schema: AccountCreatedSchema } },
      },
      ...errorResponses,
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    checkPushTarget(c.env, body.push);
    return c.json(await createAccount(c.env.DB, body), 201);
  },
);

adminRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/accounts/{id}",
    tags: ["admin"],
    security,
    request: { params: AccountIdParam, body: json(AccountPatchSchema) },
    responses: {
      200: { description: "Updated account.", content: { "application/json": { schema: z.object({}).passthrough() } } },
      ...errorResponses,
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    checkPushTarget(c.env, body.push);
    return c.json(await updateAccount(c.env.DB, c.req.valid("param").id, body), 200);
  },
);

adminRoutes.openapi(
  createRoute({
    method: "post",
    path: "/accounts/{id}/keys",
    tags: ["admin"],
    security,
    request: { params: AccountIdParam },
    responses: {
      201: {
        description: "A new key, shown once.",
        content: { "application/json": { schema: z.object({ apiKey: z.string() }) } },
      },
      ...errorResponses,
    },
  }),
  async (c) => c.json({ apiKey: await issueApiKey(c.env.DB, c.req.valid("param").id) }, 201),
);

adminRoutes.openapi(
  createRoute({
    method: "post",
    path: "/accounts/{id}/handlers",
    tags: ["admin"],
    security,
    request: { params: AccountIdParam, body: json(HandlerCreateSchema) },
    responses: {
      201: {
        description: "Handler created.",
        content: {
          "application/json": { schema: z.object({ handlerId: z.string(), email: z.string(), name: z.string() }) },
        },
      },
      ...errorResponses,
    },
  }),
  async (c) => c.json(await createHandler(c.env.DB, c.req.valid("param").id, c.req.valid("json")), 201),
);

adminRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/accounts/{id}/handlers/{handlerId}",
    tags: ["admin"],
    security,
    summary: "Remove a claims handler: no login from now on, open board sessions end at once",
    request: { params: HandlerIdParam },
    responses: {
      204: { description: "Removed (or removed before); their notes keep their name." },
      ...errorResponses,
    },
  }),
  async (c) => {
    const { id, handlerId } = c.req.valid("param");
    await removeHandler(c.env.DB, id, handlerId);
    return c.body(null, 204);
  },
);
