/**
 * An independent SigV4 check for presigned (query-signed) S3 URLs, written from the AWS
 * "Authenticating Requests: Using Query Parameters" description with crypto.subtle only, so
 * the service's signer (aws4fetch) is not used to judge itself.
 */
const encoder = new TextEncoder();

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const sha256Hex = async (text: string) => hex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));

async function hmac(key: ArrayBuffer | Uint8Array, text: string): Promise<ArrayBuffer> {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(text));
}

/** RFC 3986 unreserved characters stay, everything else is %XX (as SigV4 requires). */
const uriEncode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The parts of a presigned URL and the request a client would send with it. */
export interface PresignedRequest {
  url: string;
  method: string;
  /** Header values the client sends, by lower-case name (host comes from the URL). */
  headers?: Record<string, string>;
}

/** The canonical request of SigV4 for a query-signed S3 request with an unsigned payload. */
export function canonicalRequest({ url, method, headers = {} }: PresignedRequest): string {
  const parsed = new URL(url);
  const query = [...parsed.searchParams]
    .filter(([name]) => name !== "X-Amz-Signature")
    .map(([name, value]) => [uriEncode(name), uriEncode(value)])
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const signed = (parsed.searchParams.get("X-Amz-SignedHeaders") ?? "").split(";");
  const headerLines = signed
    .map((name) => `${name}:${(name === "host" ? parsed.host : (headers[name] ?? "")).trim().replace(/\s+/g, " ")}\n`)
    .join("");
  return [method, parsed.pathname, query, headerLines, signed.join(";"), "UNSIGNED-PAYLOAD"].join("\n");
}

/** Recomputes X-Amz-Signature from the URL's own date, scope and signed headers. */
export async function expectedSignature(request: PresignedRequest, secretAccessKey: string): Promise<string> {
  const params = new URL(request.url).searchParams;
  const amzDate = params.get("X-Amz-Date") ?? "";
  const [, date, region, service, terminator] = (params.get("X-Amz-Credential") ?? "").split("/");
  const scope = [date, region, service, terminator].join("/");
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, await sha256Hex(canonicalRequest(request))].join("\n");
  let key: ArrayBuffer = await hmac(encoder.encode(`AWS4${secretAccessKey}`), date);
  for (const part of [region, service, terminator]) key = await hmac(key, part);
  return hex(await hmac(key, stringToSign));
}
