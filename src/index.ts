import { OpenAPIHono } from "@hono/zod-openapi";
import type { Env } from "./env";
import type { AppEnv } from "./lib/app";
import { handleError, ApiError } from "./lib/problem";
import { newId } from "./lib/ids";
import { adminRoutes } from "./routes/admin";
import { captureRoutes } from "./routes/capture";
import { v2Routes } from "./routes/v2";
import { devOutbox } from "./routes/dev/outbox";
import { capturePages } from "./pages/capture";
import { boardAuthRoutes } from "./pages/board/auth-routes";
import { boardRoutes } from "./pages/board";
import { consumeJobs } from "./queue/consumer";
import { runScheduled } from "./cron";
import { handleInboundMail } from "./capture/mail/bounces";
import { registerOpenApi } from "./routes/openapi-document";
import { hardeningHeaders } from "./routes/middleware";

export { CaseLock } from "./capture/case-lock";
export { AnalysisGate } from "./scanner/execution/analysis-gate";
export { AnalysisUnit } from "./scanner/execution/analysis-unit";

const app = new OpenAPIHono<AppEnv>();

app.use("*", async (c, next) => {
  const requestId = newId();
  c.set("requestId", requestId);
  await next();
  c.res.headers.set("X-Request-Id", requestId);
});
app.use("*", hardeningHeaders);

app.route("/capture", captureRoutes);
app.route("/admin", adminRoutes);
app.route("/c", capturePages);
// Login and logout first; the board's own routes (behind requireHandler) come after.
app.route("/board", boardAuthRoutes);
app.route("/board", boardRoutes);
app.route("/v2", v2Routes);
app.route("/dev", devOutbox);
registerOpenApi(app);

app.notFound((c) => handleError(new ApiError(404, "not-found", "No such endpoint."), c));
app.onError(handleError);

export default {
  fetch: app.fetch,
  queue: (batch, env) => consumeJobs(batch, env),
  scheduled: (controller, env, ctx) => ctx.waitUntil(runScheduled(controller, env)),
  email: (message, env) => handleInboundMail(message, env),
} satisfies ExportedHandler<Env, unknown>;
