import { describe, expect, it } from "vitest";
import dune from "../../../shared/data/photos/mate-backgrounds/Dune.jpg?inline";
import leuven from "../../../shared/data/photos/opencv-doc/leuvenA.jpg?inline";
import cups from "../../../shared/data/photos/plasma-workspace-wallpapers/ColorfulCups-2560x1600.jpg?inline";
import defocus from "../../../shared/data/photos/opencv-doc/text_defocus.jpg?inline";
import {
  asCanvasJpeg,
  bytesOf,
  newCase,
  pageFetch,
  screenPhotoJpeg,
  sendShot,
  status,
  type ShotOptions,
} from "./support";

const REAL = [dune, leuven, cups];

async function walkScenes(
  token: string,
  photos: { jpeg: Uint8Array; width: number; height: number }[],
  opts: ShotOptions = {},
) {
  for (const [i, p] of photos.entries()) {
    const res = await sendShot(token, p.jpeg, p, { scenePosition: i + 1, ...opts });
    expect(res.status).toBe(201);
  }
  return (await pageFetch(token, "/finish", { method: "POST" })).json<{ outcome: string; attemptsLeft: number }>();
}

describe("attempts: photos of a screen fail the attempt; the third failure is final nicht_io", () => {
  it("retry, retry, then manual with capture_result_nicht_io_final", async () => {
    const c = await newCase();
    const outcomes = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      outcomes.push(
        await walkScenes(
          c.token,
          REAL.map((p, i) => ({ jpeg: screenPhotoJpeg(p, 2.7 + attempt * 0.2 + i * 0.15), width: 1024, height: 768 })),
        ),
      );
    }
    expect(outcomes).toEqual([
      { outcome: "retry", attemptsLeft: 2 },
      { outcome: "retry", attemptsLeft: 1 },
      { outcome: "manual", attemptsLeft: 0 },
    ]);
    const s = await status(c.apiKey, c.ticketId);
    expect(s).toMatchObject({ status: "manual", lastResult: "nicht_io", attemptCount: 3, closed: false });
    const actions = s.events.map((e) => e.action);
    expect(actions.filter((a) => a === "capture_result_nicht_io")).toHaveLength(2);
    expect(actions.at(-1)).toBe("capture_result_nicht_io_final");
    expect(actions.filter((a) => a === "capture_scene_completed")).toHaveLength(9);
    expect(s.events.every((e) => e.action === "capture_triggered" || e.actor === "capture")).toBe(true);
  }, 120_000); // nine photos through every check, the recapture model included (loaded on first use)
});

describe("outcomes that go to a person (manual)", () => {
  it("no position shared → io_gps_suspicious", async () => {
    const c = await newCase();
    expect(
      await walkScenes(
        c.token,
        REAL.map((p) => asCanvasJpeg(bytesOf(p))),
        { position: null },
      ),
    ).toEqual({ outcome: "manual", attemptsLeft: 0 });
    expect(await status(c.apiKey, c.ticketId)).toMatchObject({ status: "manual", lastResult: "io_gps_suspicious" });
  });

  it("a jump of hundreds of km between shots → io_gps_suspicious", async () => {
    const c = await newCase();
    const photos = REAL.map((p) => asCanvasJpeg(bytesOf(p)));
    for (const [i, p] of photos.entries()) {
      const position = {
        latitude: i === 2 ? 48.1 : 52.52,
        longitude: i === 2 ? 11.6 : 13.4,
        accuracy: 10,
        timestamp: Date.now(),
      };
      await sendShot(c.token, p.jpeg, p, { scenePosition: i + 1, position });
    }
    await pageFetch(c.token, "/finish", { method: "POST" });
    expect(await status(c.apiKey, c.ticketId)).toMatchObject({ lastResult: "io_gps_suspicious" });
  });

  it("a blurred scene sent anyway → io_scene_override", async () => {
    const c = await newCase();
    const blurred = asCanvasJpeg(bytesOf(defocus), 640);
    const res = await sendShot(c.token, blurred.jpeg, blurred, { scenePosition: 1 });
    const receipt = await res.json<{ photoId: string; sceneCheck: { passed: boolean; reasons: string[] } }>();
    expect(receipt.sceneCheck).toEqual({ passed: false, reasons: expect.arrayContaining(["blurry"]) });
    expect((await status(c.apiKey, c.ticketId)).scenes[0].completed).toBe(false);
    const finishEarly = await pageFetch(c.token, "/finish", { method: "POST" });
    expect(finishEarly.status).toBe(409);
    const override = await pageFetch(c.token, `/photos/${receipt.photoId}/override`, { method: "POST" });
    expect(await override.json()).toMatchObject({ overridden: true });
    for (const [i, p] of REAL.slice(1).entries()) {
      const shot = asCanvasJpeg(bytesOf(p));
      await sendShot(c.token, shot.jpeg, shot, { scenePosition: i + 2 });
    }
    expect(await (await pageFetch(c.token, "/finish", { method: "POST" })).json()).toEqual({
      outcome: "manual",
      attemptsLeft: 0,
    });
    expect(await status(c.apiKey, c.ticketId)).toMatchObject({ status: "manual", lastResult: "io_scene_override" });
  });

  it("inspection requested → manual / inspection_requested; the link then accepts nothing", async () => {
    const c = await newCase();
    expect((await pageFetch(c.token, "/inspection", { method: "POST" })).status).toBe(200);
    const s = await status(c.apiKey, c.ticketId);
    expect(s).toMatchObject({ status: "manual", lastResult: "inspection_requested" });
    expect(s.events.at(-1)).toMatchObject({ action: "capture_inspection_requested", actor: "capture" });
    const again = await pageFetch(c.token, "/nonce", { method: "POST" });
    expect(again.status).toBe(409);
  });

  it("claim withdrawn → manual / claim_withdrawn", async () => {
    const c = await newCase();
    expect((await pageFetch(c.token, "/withdraw", { method: "POST" })).status).toBe(200);
    expect(await status(c.apiKey, c.ticketId)).toMatchObject({ status: "manual", lastResult: "claim_withdrawn" });
  });
});

describe("a free series (no scenes)", () => {
  it("takes photos without scene positions and closes io", async () => {
    const c = await newCase([]);
    const p = asCanvasJpeg(bytesOf(dune));
    expect((await pageFetch(c.token, "/finish", { method: "POST" })).status).toBe(409);
    expect((await sendShot(c.token, p.jpeg, p, { scenePosition: null })).status).toBe(201);
    expect(await (await pageFetch(c.token, "/finish", { method: "POST" })).json()).toEqual({
      outcome: "io",
      attemptsLeft: 0,
    });
  });
});
