/** The one id generator: UUIDs for records, 128-bit url-safe tokens for links and secrets. */
export function newId(): string {
  return crypto.randomUUID();
}

/** `bytes` random bytes, base64url without padding (16 bytes = 128 bits). */
export function newToken(bytes = 16): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** An API key: 40 characters from [A-Za-z0-9] (DESIGN §5). */
export function newApiKey(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const out: string[] = [];
  while (out.length < 40) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      // 248 = 4 * 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && out.length < 40) out.push(alphabet[byte % 62]);
    }
  }
  return out.join("");
}

export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
