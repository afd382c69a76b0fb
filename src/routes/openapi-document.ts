import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../lib/app";

/** Serves `/openapi.json` (OpenAPI 3.1) from the zod schemas of every mounted route. */
export function registerOpenApi(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKeyAuth", {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "captureBearerAuth", { type: "http", scheme: "bearer" });
  app.openAPIRegistry.registerComponent("securitySchemes", "adminBearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "ADMIN_TOKEN",
  });
  app.doc31("/openapi.json", (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Live Capture and File Verification Service",
      version: "2.3.1",
      description: "Capture cases (/capture) and file verification (/v2). Errors are RFC 9457 problem+json.",
    },
    servers: [{ url: c.env.PUBLIC_BASE_URL }],
  }));
}
