import { type env, SELF } from "cloudflare:test";
import { BASE, fetchWith } from "../helpers";

/**
 * POST /v2/scanner with the ZIP as multipart part `file` (when given). With `bindings` the Worker's
 * fetch handler is called directly with them (a shorter timeout, another analyzer set); the Worker
 * hands its settings to the gate and units with the job.
 */
export function postScanner(opts: {
  apiKey?: string;
  caseNumber?: string;
  zip?: Uint8Array;
  storageKey?: string;
  headers?: Record<string, string>;
  bindings?: typeof env;
}): Promise<Response> {
  const headers: Record<string, string> = {
    ...(opts.apiKey !== undefined && { "x-api-key": opts.apiKey }),
    ...(opts.caseNumber !== undefined && { caseNumber: opts.caseNumber }),
    ...opts.headers,
  };
  let body: FormData | undefined;
  if (opts.zip) {
    body = new FormData();
    body.append("file", new File([opts.zip], "claim.zip", { type: "application/zip" }));
  }
  const query = opts.storageKey !== undefined ? `?storage_key=${encodeURIComponent(opts.storageKey)}` : "";
  const request = new Request(`${BASE}/v2/scanner${query}`, { method: "POST", headers, body });
  return opts.bindings ? fetchWith(opts.bindings, request) : SELF.fetch(request);
}

/** A 4–50 character case number unique in this run. */
let n = 0;
export function scanCase(prefix = "SC"): string {
  n += 1;
  return `${prefix}-${Date.now().toString(36)}-${n}`;
}
