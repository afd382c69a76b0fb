import { env, SELF } from "cloudflare:test";
import { Hono } from "hono";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { clock } from "../../src/lib/clock";
import type { BoardEnv } from "../../src/pages/board/handler-context";
import { requireCsrf, requireHandler } from "../../src/pages/board/require-handler";
import { ADMIN, BASE, createAccount } from "../helpers";
import { addHandler, loginAs, setCookieValue } from "./login";

/**
 * Optional login through Cloudflare Access (issue 13): the `Cf-Access-Jwt-Assertion` is checked
 * against the team's JWKS, served here by MSW from a locally generated RSA key pair.
 */
const TEAM = "capture-test.cloudflareaccess.com";
const ISSUER = `https://${TEAM}`;
const AUD = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
const accessEnv = { ...(env as Env), ACCESS_TEAM_DOMAIN: TEAM, ACCESS_AUD: AUD };

const server = setupServer();
let keys: Awaited<ReturnType<typeof generateKeyPair>>;
let impostor: Awaited<ReturnType<typeof generateKeyPair>>;
let certRequests = 0;

beforeAll(async () => {
  keys = await generateKeyPair("RS256", { extractable: true });
  impostor = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: "key-1", alg: "RS256", use: "sig" };
  server.use(
    http.get(`${ISSUER}/cdn-cgi/access/certs`, () => {
      certRequests += 1;
      return HttpResponse.json({ keys: [jwk], public_cert: { kid: "key-1" }, public_certs: [] });
    }),
  );
  server.listen({ onUnhandledRequest: "error" });
});
afterEach(() => clock.reset());
afterAll(() => server.close());

const probe = new Hono<BoardEnv>();
probe.use("/board/*", requireHandler, requireCsrf);
probe.get("/board/probe", (c) => c.json(c.var.handler));

function call(headers: Record<string, string>, bindings: Env = accessEnv): Promise<Response> {
  return Promise.resolve(probe.fetch(new Request(`${BASE}/board/probe`, { headers, redirect: "manual" }), bindings));
}

/** An Access assertion as Cloudflare would send it; `claims` and `opts` spoil it on purpose. */
async function assertion(
  email: string,
  claims: JWTPayload = {},
  opts: { key?: CryptoKey; expiresIn?: string; kid?: string; aud?: string; iss?: string } = {},
): Promise<string> {
  return new SignJWT({ email, type: "app", ...claims })
    .setProtectedHeader({ alg: "RS256", kid: opts.kid ?? "key-1" })
    .setIssuer(opts.iss ?? ISSUER)
    .setAudience(opts.aud ?? AUD)
    .setSubject(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(opts.expiresIn ?? "10m")
    .sign(opts.key ?? keys.privateKey);
}

async function knownHandler() {
  const { accountId } = await createAccount({ name: "Access Insurer" });
  return { accountId, ...(await addHandler(accountId)) };
}

describe("a valid Access assertion", () => {
  it("logs in the handler with that e-mail and gives the browser a session cookie", async () => {
    const handler = await knownHandler();
    const res = await call({ "cf-access-jwt-assertion": await assertion(handler.email.toUpperCase()) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: handler.id, accountId: handler.accountId, email: handler.email });
    const token = setCookieValue(res, "__Host-board_session");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // With that cookie and the assertion, the session is reused: no new cookie.
    const next = await call({
      "cf-access-jwt-assertion": await assertion(handler.email),
      cookie: `__Host-board_session=${token}`,
    });
    expect(next.status).toBe(200);
    expect(setCookieValue(next, "__Host-board_session")).toBeUndefined();
  });

  it("replaces a session cookie of another handler: the assertion decides who this is", async () => {
    const handler = await knownHandler();
    const other = await loginAs();
    const res = await call({ "cf-access-jwt-assertion": await assertion(handler.email), cookie: other.cookie });
    expect(res.status).toBe(200);
    expect((await res.json<{ id: string }>()).id).toBe(handler.id);
    expect(setCookieValue(res, "__Host-board_session")).toBeDefined();
  });

  it("fetches the team's keys once and keeps them", async () => {
    const handler = await knownHandler();
    await call({ "cf-access-jwt-assertion": await assertion(handler.email) });
    const before = certRequests;
    for (let i = 0; i < 3; i++) {
      expect((await call({ "cf-access-jwt-assertion": await assertion(handler.email) })).status).toBe(200);
    }
    expect(certRequests).toBe(before);
  });
});

describe("an Access assertion that is refused (403)", () => {
  it.each<[string, (email: string) => Promise<string>]>([
    ["signed by another key", (email) => assertion(email, {}, { key: impostor.privateKey })],
    ["for another application (aud)", (email) => assertion(email, {}, { aud: "another-application" })],
    ["from another team (iss)", (email) => assertion(email, {}, { iss: "https://evil.cloudflareaccess.com" })],
    ["expired", (email) => assertion(email, {}, { expiresIn: "-5m" })],
    ["not yet valid (nbf)", (email) => assertion(email, { nbf: Math.floor(Date.now() / 1000) + 600 })],
    ["with an unknown key id", (email) => assertion(email, {}, { kid: "key-unknown" })],
    ["not a JWT at all", async () => "not.a.jwt"],
  ])("%s", async (_, make) => {
    const handler = await knownHandler();
    const res = await call({ "cf-access-jwt-assertion": await make(handler.email) });
    expect(res.status).toBe(403);
    expect(setCookieValue(res, "__Host-board_session")).toBeUndefined();
    expect(await res.text()).toContain("Kein Zugang");
  });

  it("an unsigned token (alg none)", async () => {
    const handler = await knownHandler();
    const b64 = (value: unknown) =>
      btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    const now = Math.floor(Date.now() / 1000);
    const token = `${b64({ alg: "none", kid: "key-1" })}.${b64({ email: handler.email, aud: AUD, iss: ISSUER, exp: now + 600 })}.`;
    expect((await call({ "cf-access-jwt-assertion": token })).status).toBe(403);
  });

  it("valid, but for an e-mail that is no handler's", async () => {
    const res = await call({ "cf-access-jwt-assertion": await assertion("stranger@elsewhere.test") });
    expect(res.status).toBe(403);
  });

  it("valid, but for a handler the account removed: no session, not even for this request", async () => {
    const handler = await knownHandler();
    const removed = await SELF.fetch(`${BASE}/admin/accounts/${handler.accountId}/handlers/${handler.id}`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(removed.status).toBe(204);
    const res = await call({ "cf-access-jwt-assertion": await assertion(handler.email) });
    expect(res.status).toBe(403);
    expect(setCookieValue(res, "__Host-board_session")).toBeUndefined();
  });

  it("expired by the service's clock, though fine when it was issued", async () => {
    const handler = await knownHandler();
    const token = await assertion(handler.email, {}, { expiresIn: "2m" });
    clock.advance(3 * 60_000);
    expect((await call({ "cf-access-jwt-assertion": token })).status).toBe(403);
  });
});

describe("Access configured, no assertion", () => {
  it("falls back to the session cookie and the login page", async () => {
    const who = await loginAs();
    expect((await call({ cookie: who.cookie })).status).toBe(200);
    expect((await call({})).status).toBe(303);
  });
});

describe("Access not configured", () => {
  it("ignores an assertion header entirely", async () => {
    const handler = await knownHandler();
    const res = await call({ "cf-access-jwt-assertion": await assertion(handler.email) }, env as Env);
    expect(res.status).toBe(303);
  });
});
