import type { Env } from "../../env";

/**
 * Where a result push may go. In production only `https` to a public address: a push URL is
 * account data, and the Worker must not be turned into a probe of loopback, private or
 * link-local networks. Local development (PUBLIC_BASE_URL on http://127.0.0.1 or localhost) and
 * `PUSH_TARGETS=any` allow `http` and such addresses, so a receiver on the developer's machine works.
 *
 * Host names are checked as written: a public name that resolves to a private address cannot be
 * seen from a Worker (no DNS API); Cloudflare's edge does not route a Worker's fetch into private
 * networks in any case.
 */
export function pushTargetsOpen(env: Pick<Env, "PUBLIC_BASE_URL" | "PUSH_TARGETS">): boolean {
  if (env.PUSH_TARGETS === "any") return true;
  if (env.PUSH_TARGETS === "public") return false;
  return /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(env.PUBLIC_BASE_URL);
}

/** Why `url` is not an allowed push target, or null when it is. */
export function pushTargetProblem(url: string, env: Pick<Env, "PUBLIC_BASE_URL" | "PUSH_TARGETS">): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not a URL";
  }
  if (parsed.username || parsed.password) return "credentials in the URL are not allowed";
  if (pushTargetsOpen(env))
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? null : "must be http(s)";
  if (parsed.protocol !== "https:") return "must be https";
  if (isPrivateHost(parsed.hostname)) return "loopback, private and link-local addresses are not allowed";
  return null;
}

/** Loopback, private, link-local, shared, reserved or multicast: an address a push must not reach. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal"))
    return true;
  if (host.startsWith("[")) return isPrivateIpv6(host.slice(1, -1));
  // The URL parser already turned every IPv4 spelling (decimal, hex, short) into dotted quads.
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  return v4 ? isPrivateIpv4(v4.slice(1).map(Number)) : false;
}

function isPrivateIpv4([a, b, c]: number[]): boolean {
  return (
    a === 0 || // "this" network
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local (cloud metadata endpoints)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && c === 0) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

function isPrivateIpv6(address: string): boolean {
  const a = address.toLowerCase();
  if (a === "::" || a === "::1") return true;
  // IPv4-mapped (::ffff:7f00:1 after URL normalisation) or dotted.
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(a);
  if (mapped) {
    if (mapped[1]) return isPrivateIpv4(mapped[1].split(".").map(Number));
    const hi = parseInt(mapped[2], 16);
    const lo = parseInt(mapped[3], 16);
    return isPrivateIpv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  const first = parseInt(a.split(":")[0] || "0", 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00; // unique local, link-local, multicast
}
