import { SELF } from "cloudflare:test";
import { BASE } from "../helpers";

/** POST /v2/scanner with the ZIP as multipart part `file` (when given). */
export function postScanner(opts: { apiKey?: string; caseNumber?: string; zip?: Uint8Array; storageKey?: string; headers?: Record<string, string> }): Promise<Response> {
  const headers: Record<string, string> = { ...(opts.apiKey !== undefined && { "x-api-key": opts.apiKey }), ...(opts.caseNumber !== undefined && { caseNumber: opts.caseNumber }), ...opts.headers };
  let body: FormData | undefined;
  if (opts.zip) {
    body = new FormData();
    body.append("file", new File([opts.zip], "claim.zip", { type: "application/zip" }));
  }
  const query = opts.storageKey !== undefined ? `?storage_key=${encodeURIComponent(opts.storageKey)}` : "";
  return SELF.fetch(`${BASE}/v2/scanner${query}`, { method: "POST", headers, body });
}

/** A 4–50 character case number unique in this run. */
let n = 0;
export function scanCase(prefix = "SC"): string {
  n += 1;
  return `${prefix}-${Date.now().toString(36)}-${n}`;
}
