import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import dune from "../../../shared/data/photos/mate-backgrounds/Dune.jpg?inline";
import { manualReasonOf } from "../../src/board/manual-reason";
import { asCanvasJpeg, bytesOf, pageFetch, sendShot, sha256Hex } from "../capture-page/support";
import { loginAs } from "./login";
import { apiCase, boardGet } from "./support";

describe("the case page shows the case, its sessions, scenes, photos with every check, history and push", () => {
  it("shows a photo taken through the capture page with its four checks, evidence and attestation", async () => {
    const s = await loginAs();
    const c = await apiCase(s.apiKey, {
      vnName: "Erika Muster",
      scenes: [{ description: "Kitchen wall" }, { description: "Floor" }],
      customNote: "Bitte auch den Boden",
    });
    const photo = asCanvasJpeg(bytesOf(dune));
    const shot = await sendShot(c.token, photo.jpeg, photo, {
      scenePosition: 1,
      cameraLabel: "camera2 0, facing back",
    });
    expect(shot.status, await shot.clone().text()).toBe(201);
    const { photoId } = await shot.json<{ photoId: string }>();

    const res = await boardGet(s, `/board/cases/${c.ticketId}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`Fall ${c.caseNumber}`);
    expect(html).toContain("Erika Muster");
    expect(html).toContain("Bitte auch den Boden");
    expect(html).toContain(c.captureLink);
    expect(html).toContain("Kitchen wall");
    // The photo, its thumbnail and full view, and one row per check with a result.
    expect(html).toContain(`src="/board/cases/${c.ticketId}/photos/${photoId}?size=thumb"`);
    expect(html).toContain(`href="/board/cases/${c.ticketId}/photos/${photoId}"`);
    for (const check of ["scene", "camera", "recapture", "location"])
      expect(html).toMatch(new RegExp(`<tr class="check-(pass|fail|unknown)" data-check="${check}">`));
    expect(html).toContain("Foto 1: Kitchen wall");
    expect(html).toContain("camera2 0, facing back (1280 × ");
    expect(html).toContain("Mozilla/5.0 (Linux; Android 14; Pixel 7) test");
    expect(html).toMatch(/52\.52000, 13\.40500 \(± 12 m\)/);
    expect(html).toContain('data-action="capture_triggered"');
    expect(html).toContain("Noch kein Push");
  });

  it("says why a check failed in the handler's language, with the values measured", async () => {
    const s = await loginAs();
    const c = await apiCase(s.apiKey, { scenes: [{ description: "Front" }] });
    const photo = asCanvasJpeg(bytesOf(dune), 960);
    const shot = await sendShot(c.token, photo.jpeg, photo, { scenePosition: 1, cameraLabel: "OBS Virtual Camera" });
    expect(shot.status, await shot.clone().text()).toBe(201);
    const page = (lang: string) => boardGet(s, `/board/cases/${c.ticketId}?lang=${lang}`).then((r) => r.text());
    expect(await page("de")).toContain("Die Kamera meldet sich als „OBS Virtual Camera“, eine virtuelle Kamera");
    expect(await page("en")).toContain("The camera reports itself as &quot;OBS Virtual Camera&quot;, a virtual camera");
    expect(await page("pl")).toContain("Kamera przedstawia się jako „OBS Virtual Camera”, kamera wirtualna");
  });

  it("serves the photo and a PNG thumbnail only to a handler of the case's account", async () => {
    const s = await loginAs();
    const other = await loginAs();
    const c = await apiCase(s.apiKey, { scenes: [{ description: "Front" }] });
    const photo = asCanvasJpeg(bytesOf(dune), 960);
    const shot = await sendShot(c.token, photo.jpeg, photo, { scenePosition: 1 });
    const { photoId } = await shot.json<{ photoId: string }>();
    const url = `/board/cases/${c.ticketId}/photos/${photoId}`;

    const full = await boardGet(s, url);
    expect(full.status).toBe(200);
    expect(full.headers.get("content-type")).toBe("image/jpeg");
    expect(full.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(await sha256Hex(new Uint8Array(await full.arrayBuffer()))).toBe(await sha256Hex(photo.jpeg));

    const thumb = await boardGet(s, `${url}?size=thumb`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/png");
    const png = new Uint8Array(await thumb.arrayBuffer());
    const width = new DataView(png.buffer).getUint32(16);
    expect(width).toBe(320);
    // Made once, then kept next to the photo.
    const key = (await env.DB.prepare("SELECT r2_key AS k FROM capture_photos WHERE id = ?")
      .bind(photoId)
      .first<{ k: string }>())!.k;
    expect(await env.BUCKET.head(`${key}.thumb.png`)).not.toBeNull();

    expect((await boardGet(other, url)).status).toBe(404);
    expect((await boardGet(other, `${url}?size=thumb`)).status).toBe(404);
    expect((await boardGet(s, `/board/cases/${c.ticketId}/photos/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await boardGet({ cookie: "" }, url)).status).toBe(303);
  });
});

describe("tenancy: another account's case is 404, also by URL", () => {
  it("answers 404 with a page that reveals nothing of the case", async () => {
    const mine = await loginAs();
    const other = await loginAs();
    const theirs = await apiCase(other.apiKey, { vnName: "Secret Person" });
    const res = await boardGet(mine, `/board/cases/${theirs.ticketId}`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Fall nicht gefunden");
    expect(html).not.toContain(theirs.caseNumber);
    expect(html).not.toContain("Secret Person");
    expect((await boardGet(mine, `/board/cases/not-a-case`)).status).toBe(404);
  });
});

describe("why a manual case is there", () => {
  it("says it on the case page: the policyholder asked for an inspection", async () => {
    const s = await loginAs();
    const c = await apiCase(s.apiKey);
    await pageFetch(c.token, "/inspection", { method: "POST" });
    const html = await (await boardGet(s, `/board/cases/${c.ticketId}`)).text();
    expect(html).toMatch(
      /id="manual-reason"><strong>Warum manuell:<\/strong> Versicherungsnehmer wünscht Besichtigung/,
    );
  });

  it("takes the reason from the last event into manual; exhausted reminders leave lastResult as it was", () => {
    expect(manualReasonOf("pending", "escalated_to_manual")).toBe("reminders_exhausted");
    expect(manualReasonOf("nicht_io", "escalated_to_manual")).toBe("reminders_exhausted");
    expect(manualReasonOf("nicht_io", "capture_result_nicht_io_final")).toBe("attempts_failed");
    expect(manualReasonOf("io_gps_suspicious", "capture_result_io_gps_suspicious")).toBe("gps_suspicious");
    expect(manualReasonOf("io_scene_override", null)).toBe("scene_override");
    expect(manualReasonOf("claim_withdrawn", null)).toBe("claim_withdrawn");
    expect(manualReasonOf("pending", null)).toBe("reminders_exhausted");
  });

  it("shows a bounced invitation on the card and the case page", async () => {
    const s = await loginAs();
    const c = await apiCase(s.apiKey);
    await env.DB.prepare(
      "INSERT INTO outbox (id, account_id, case_id, kind, channel, recipient, payload, status, attempts, created_at) VALUES (?, ?, ?, 'invitation', 'email', 'gone@example.test', '{}', 'failed', 1, ?)",
    )
      .bind(crypto.randomUUID(), s.accountId, c.ticketId, Date.now())
      .run();
    const page = await (await boardGet(s, `/board/cases/${c.ticketId}`)).text();
    expect(page).toContain('class="bounced-banner"');
    expect(page).toContain("gone@example.test");
    expect(page).toContain("unzustellbar");
  });
});

describe("languages: German by default, English and Polish on request, remembered", () => {
  it("switches with ?lang= and keeps the choice in a cookie", async () => {
    const s = await loginAs();
    const c = await apiCase(s.apiKey);
    const de = await (await boardGet(s, `/board/cases/${c.ticketId}`)).text();
    expect(de).toContain('<html lang="de">');
    const en = await boardGet(s, `/board/cases/${c.ticketId}?lang=en`);
    const html = await en.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("Close the case");
    const cookie = en.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^board_lang=en;/);
    const again = await boardGet({ cookie: `${s.cookie}; board_lang=pl` }, "/board");
    expect(await again.text()).toContain("Tablica szkód");
  });
});
