import { OpenAPIHono } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import type { Env } from "../env";
import type { AccountContext } from "../accounts/auth";
import { invalid, type FieldError } from "./problem";

/** Variables every handler can read from the context. */
export interface AppVariables {
  requestId: string;
  account: AccountContext;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };

/** A router whose zod validation failures become our 400 problem (DESIGN §2). */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw invalid(zodFieldErrors(result.error, result.target));
    },
  });
}

/** Field paths as callers know them: body fields bare, headers/query prefixed by nothing either. */
export function zodFieldErrors(error: ZodError, target?: string): FieldError[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ field: path ? `${path}.${key}` : key, message: "is not a known field" }));
    }
    return [{ field: path || (target === "json" ? "body" : (target ?? "body")), message: issue.message }];
  });
}
