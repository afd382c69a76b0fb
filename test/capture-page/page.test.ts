import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import dune from "../../../shared/data/photos/mate-backgrounds/Dune.jpg?inline";
import { BASE } from "../helpers";
import { asCanvasJpeg, bytesOf, newCase, pageFetch, sendShot } from "./support";

const get = (token: string, headers: Record<string, string> = {}, query = "") =>
  SELF.fetch(`${BASE}/c/${token}${query}`, { headers });

describe("GET /c/{token}: the capture page", () => {
  it("is server-rendered with the custom note, the scenes and every step", async () => {
    const c = await newCase();
    const res = await get(c.token, { "accept-language": "en-GB,en;q=0.9" });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<html lang="en">');
    expect(page).toContain("Please include the dent on the left door.");
    expect(page).toMatch(
      /<li data-position="1">Front of the car<\/li><li data-position="2">Damage close up<\/li><li data-position="3">Number plate<\/li>/,
    );
    for (const id of ["intro", "camera", "preview", "ready", "result", "confirm", "inspection", "withdraw"])
      expect(page).toContain(`id="${id}"`);
  });

  it("speaks German, English or Polish by Accept-Language, and the switch (?lang) wins", async () => {
    const c = await newCase();
    expect(await (await get(c.token, { "accept-language": "de-DE,de;q=0.9,en;q=0.5" })).text()).toContain(
      "Fotos für Ihren Schaden",
    );
    expect(await (await get(c.token, { "accept-language": "fr-FR, pl;q=0.8, en;q=0.3" })).text()).toContain(
      "Zdjęcia do Twojej szkody",
    );
    expect(await (await get(c.token, { "accept-language": "de" }, "?lang=pl")).text()).toContain('<html lang="pl">');
    const page = await (await get(c.token, { "accept-language": "de" })).text();
    expect(page).toContain(`href="/c/${c.token}?lang=en"`);
    expect(page).toContain('aria-current="true">DE</a>');
  });

  it("allows no inline script and nothing from other origins", async () => {
    const c = await newCase();
    const res = await get(c.token);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const page = await res.text();
    expect(page.match(/<script[^>]*>/g)).toEqual(['<script src="/c/assets/capture.js?v=3" defer>']);
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).not.toMatch(/type="file"/);
  });

  it("serves its script and stylesheet from the Worker", async () => {
    const js = await SELF.fetch(`${BASE}/c/assets/capture.js`);
    expect(js.headers.get("content-type")).toContain("text/javascript");
    expect(await js.text()).toContain("getUserMedia");
    const css = await SELF.fetch(`${BASE}/c/assets/capture.css`);
    expect(css.headers.get("content-type")).toContain("text/css");
  });
});

describe("links that accept nothing show a clear page", () => {
  it("unknown → 404", async () => {
    expect((await get("AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
  });

  it("closed → 410, and its endpoints refuse", async () => {
    const c = await newCase([]);
    const p = asCanvasJpeg(bytesOf(dune));
    await sendShot(c.token, p.jpeg, p, { scenePosition: null });
    await pageFetch(c.token, "/finish", { method: "POST" });
    const res = await get(c.token, { "accept-language": "en" });
    expect(res.status).toBe(410);
    expect(await res.text()).toContain("This case is closed");
    expect((await pageFetch(c.token, "/nonce", { method: "POST" })).status).toBe(410);
  });

  it("handed in (manual) → a thank-you page, uploads refused with 409", async () => {
    const c = await newCase();
    await pageFetch(c.token, "/withdraw", { method: "POST" });
    const res = await get(c.token, { "accept-language": "en" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Photos received");
    const refused = await pageFetch(c.token, "/nonce", { method: "POST" });
    expect(refused.status).toBe(409);
    expect((await refused.json<{ detail: string }>()).detail).toMatch(/being reviewed/);
  });
});
