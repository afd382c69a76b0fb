import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from "jose";
import type { Env } from "../../env";
import { clock } from "../../lib/clock";

/** Cloudflare Access in front of the board: the team's issuer URL and the application's AUD tag. */
export interface AccessConfig {
  issuer: string;
  audience: string;
}

/** On when both ACCESS_TEAM_DOMAIN and ACCESS_AUD are set; the domain may be given with or without https://. */
export function accessConfig(env: Env): AccessConfig | null {
  const team = env.ACCESS_TEAM_DOMAIN?.trim()
    .replace(/^https?:\/\//, "")
    .replace(/\/+$/, "");
  const audience = env.ACCESS_AUD?.trim();
  if (!team || !audience) return null;
  const host = team.includes(".") ? team : `${team}.cloudflareaccess.com`;
  return { issuer: `https://${host}`, audience };
}

/**
 * The team's signing keys, one set per issuer and isolate: jose caches them (10 minutes) and
 * fetches again when a token names a key id it does not know (Access rotates its keys).
 */
const keySets = new Map<string, JWTVerifyGetKey>();

function keySet(issuer: string): JWTVerifyGetKey {
  let keys = keySets.get(issuer);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(`${issuer}/cdn-cgi/access/certs`));
    keySets.set(issuer, keys);
  }
  return keys;
}

/**
 * The e-mail of a valid `Cf-Access-Jwt-Assertion` (RS256 by the team's keys, our AUD, the team as
 * issuer, inside exp/nbf with 30 s of leeway), lower-cased; null for anything else, a service
 * token without e-mail included.
 */
export async function accessEmail(assertion: string, config: AccessConfig): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(assertion, keySet(config.issuer), {
      algorithms: ["RS256"],
      issuer: config.issuer,
      audience: config.audience,
      requiredClaims: ["exp"],
      currentDate: clock.now(),
      clockTolerance: 30,
    });
    return typeof payload.email === "string" && payload.email ? payload.email.toLowerCase() : null;
  } catch (err) {
    console.warn("board: Cloudflare Access assertion refused", err instanceof Error ? err.message : String(err));
    return null;
  }
}
