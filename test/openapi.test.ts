import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE } from "./helpers";

describe("/openapi.json (OpenAPI 3.1 from the zod schemas)", () => {
  it("covers the public routes and the spec's security schemes", async () => {
    const res = await SELF.fetch(`${BASE}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json<{
      openapi: string;
      paths: Record<string, Record<string, { security?: unknown[] }>>;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
    }>();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/capture/link", "/capture/status", "/capture/retrigger"]),
    );
    expect(doc.components.securitySchemes).toMatchObject({
      apiKeyAuth: { type: "apiKey", in: "header", name: "x-api-key" },
      captureBearerAuth: { type: "http", scheme: "bearer" },
    });
    expect(doc.paths["/capture/link"].post.security).toEqual([{ apiKeyAuth: [] }, { captureBearerAuth: [] }]);
    expect(doc.components.schemas).toHaveProperty("CaptureCaseStatus");
    expect(doc.components.schemas).toHaveProperty("Problem");
  });
});
