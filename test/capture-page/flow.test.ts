import { describe, expect, it } from "vitest";
import dune from "../../../shared/data/photos/mate-backgrounds/Dune.jpg?inline";
import leuven from "../../../shared/data/photos/opencv-doc/leuvenA.jpg?inline";
import cups from "../../../shared/data/photos/plasma-workspace-wallpapers/ColorfulCups-2560x1600.jpg?inline";
import { asCanvasJpeg, bytesOf, newCase, pageFetch, sendShot, status } from "./support";

describe("a clean attempt over three scenes closes the case as io", () => {
  it("walks the scenes, records events and ends closed/closed_io", async () => {
    const c = await newCase();
    const photos = [dune, leuven, cups].map((p) => asCanvasJpeg(bytesOf(p)));
    for (const [i, p] of photos.entries()) {
      const res = await sendShot(c.token, p.jpeg, p, { scenePosition: i + 1 });
      expect(res.status, await res.clone().text()).toBe(201);
      const receipt = await res.json<{ sceneCheck: { passed: boolean } }>();
      expect(receipt.sceneCheck.passed).toBe(true);
    }
    const finish = await pageFetch(c.token, "/finish", { method: "POST" });
    expect(await finish.json()).toEqual({ outcome: "io", attemptsLeft: 0 });
    const s = await status(c.apiKey, c.ticketId);
    expect(s).toMatchObject({
      status: "closed",
      lastResult: "io",
      finalDecision: "closed_io",
      closed: true,
      attemptCount: 1,
    });
    expect(s.events.map((e) => e.action)).toEqual([
      "capture_triggered",
      "capture_scene_completed",
      "capture_scene_completed",
      "capture_scene_completed",
      "capture_result_io",
    ]);
  });
});
