/**
 * Standard Webhooks signatures (DESIGN §14): `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`.
 * The key is the base64 part of the account's `whsec_<base64>` secret, decoded — exactly what the
 * receivers' Standard Webhooks libraries do with the same string.
 */
const encoder = new TextEncoder();

/** Accepted push secrets: `whsec_` and 24 to 64 random bytes in base64 (the Standard Webhooks recommendation). */
export function isValidPushSecret(secret: string): boolean {
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
  if (!match || match[1].length % 4 !== 0) return false;
  const length = secretKeyBytes(secret).length;
  return length >= 24 && length <= 64;
}

/** The HMAC key of a `whsec_<base64>` secret (the prefix is optional, as in the reference libraries). */
export function secretKeyBytes(secret: string): Uint8Array<ArrayBuffer> {
  const base64 = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  const binary = atob(base64);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The `webhook-signature` header value for one attempt. */
export async function signWebhook(secret: string, id: string, timestampS: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", secretKeyBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${id}.${timestampS}.${body}`)));
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}
