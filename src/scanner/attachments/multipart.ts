import { newToken } from "../../lib/ids";
import type { CategoryBundle } from "./bundles";

/**
 * multipart/mixed of DESIGN §13: first the JSON result, then one application/zip part per
 * category with `Content-Disposition: attachment; filename="<category>.zip"`.
 */
export function multipartMixed(json: string, bundles: CategoryBundle[]): { body: Uint8Array; contentType: string } {
  const boundary = `capture-verify-${newToken(12)}`;
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [
    encoder.encode(`--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${json}\r\n`),
  ];
  for (const bundle of bundles) {
    chunks.push(
      encoder.encode(
        `--${boundary}\r\nContent-Type: application/zip\r\nContent-Transfer-Encoding: binary\r\nContent-Disposition: attachment; filename="${bundle.filename}"\r\nContent-Length: ${bundle.zip.length}\r\n\r\n`,
      ),
      bundle.zip,
      encoder.encode("\r\n"),
    );
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  return { body, contentType: `multipart/mixed; boundary=${boundary}` };
}
