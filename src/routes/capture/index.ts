import { createRoute, type z } from "@hono/zod-openapi";
import { requireApiKey } from "../../accounts/auth";
import { createCase, retriggerCase } from "../../capture/commands";
import { resolveCase } from "../../capture/lookup";
import { assertModeRequirements } from "../../capture/mode-rules";
import { statusView } from "../../capture/status-view";
import { getDb } from "../../db/client";
import { createRouter } from "../../lib/app";
import { ApiError } from "../../lib/problem";
import { captureSecurity, errorResponses, ProblemSchema } from "../openapi-common";
import { jsonBodyLimit, requireJson } from "../middleware";
import { CaseLinkSchema, CaseStatusSchema, CreateCaseSchema, RetriggerSchema, StatusQuerySchema } from "./schema";

export const captureRoutes = createRouter();
captureRoutes.use("*", requireApiKey({ bearer: true }));
captureRoutes.on("POST", "*", jsonBodyLimit, requireJson);

const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } } });

captureRoutes.openapi(
  createRoute({
    method: "post",
    path: "/link",
    tags: ["capture"],
    summary: "Create a capture case (spec 4.1)",
    security: captureSecurity,
    request: { body: { ...json(CreateCaseSchema), required: true } },
    responses: {
      201: { description: "Case created.", ...json(CaseLinkSchema) },
      409: {
        description: "An open case exists for the case number; its link is in the body.",
        content: { "application/problem+json": { schema: ProblemSchema } },
      },
      ...errorResponses,
    },
  }),
  async (c) => {
    const account = c.get("account");
    const input = c.req.valid("json");
    assertModeRequirements(account, input);
    const outcome = await createCase(c.env, account, input);
    if (outcome.created) return c.json(outcome.view, 201);
    throw new ApiError(409, "case-open", "An open capture case exists for this case number; its link is returned.", {
      body: { ...outcome.view, notificationStatus: { emailSent: false, smsSent: false } },
    });
  },
);

captureRoutes.openapi(
  createRoute({
    method: "get",
    path: "/status",
    tags: ["capture"],
    summary: "Capture case status (spec 4.2)",
    security: captureSecurity,
    request: { query: StatusQuerySchema },
    responses: { 200: { description: "The case record.", ...json(CaseStatusSchema) }, ...errorResponses },
  }),
  async (c) => {
    const account = c.get("account");
    const db = getDb(c.env.DB);
    const row = await resolveCase(db, account.id, c.req.valid("query"));
    return c.json(await statusView(db, c.env, row, account.communicationMode), 200);
  },
);

captureRoutes.openapi(
  createRoute({
    method: "post",
    path: "/retrigger",
    tags: ["capture"],
    summary: "Issue a new link for an open case",
    description:
      "Adds a session, increases retriggerCount and invalidates the previous link. A closed case answers 409.",
    security: captureSecurity,
    request: { body: { ...json(RetriggerSchema), required: true } },
    responses: {
      200: { description: "The new link.", ...json(CaseLinkSchema) },
      409: { description: "The case is closed.", content: { "application/problem+json": { schema: ProblemSchema } } },
      ...errorResponses,
    },
  }),
  async (c) => {
    const account = c.get("account");
    const row = await resolveCase(getDb(c.env.DB), account.id, c.req.valid("json"));
    const view = await retriggerCase(c.env, account, row, "API");
    return c.json(view, 200);
  },
);
