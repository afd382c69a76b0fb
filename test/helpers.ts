import { createExecutionContext, SELF, waitOnExecutionContext } from "cloudflare:test";
import type { Env } from "../src/env";
import worker from "../src/index";

export const BASE = "https://capture.test";
export const ADMIN = { authorization: "Bearer test-admin-token", "content-type": "application/json" };

/** Creates an account through the admin API and returns its id and key. */
export async function createAccount(
  settings: Record<string, unknown> = {},
): Promise<{ accountId: string; apiKey: string }> {
  const res = await SELF.fetch(`${BASE}/admin/accounts`, {
    method: "POST",
    headers: ADMIN,
    body: JSON.stringify({ name: "Test Insurer", communicationMode: "eigenversand", ...settings }),
  });
  if (res.status !== 201) throw new Error(`account creation failed: ${res.status} ${await res.text()}`);
  return res.json();
}

export function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

let counter = 0;
/** A case number unique within the test run. */
export function uniqueCaseNumber(prefix = "SCH"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

/**
 * The Worker's fetch handler called directly with other bindings (settings a test changes, e.g.
 * another mail provider); Durable Objects keep the test run's own settings.
 */
export async function fetchWith(bindings: Env, request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}
