/// <reference types="node" />
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseStatus, launchWithCamera, newCase, phonePage, shoot, takeAndUse, textOf } from "./harness";
import { startDevServer, type DevServer } from "./server";
import { loadPhoto, onScreen, writeY4m } from "./y4m";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

const SCENES = ["Whole kitchen wall", "Water stain close up", "Floor below the stain"];
const VIDEO = { width: 960, height: 540, frames: 60, fps: 5 };
const DATA = "../shared/data/photos";

let server: DevServer;
let videos: string;
const y4m = { real: "", screen: "", blurred: "" };

beforeAll(async () => {
  videos = mkdtempSync(join(tmpdir(), "capture-y4m-"));
  y4m.real = join(videos, "real.y4m");
  y4m.screen = join(videos, "screen.y4m");
  y4m.blurred = join(videos, "blurred.y4m");
  writeY4m(y4m.real, loadPhoto(`${DATA}/mate-backgrounds/Dune.jpg`, VIDEO.width, VIDEO.height, 120), VIDEO);
  writeY4m(
    y4m.screen,
    onScreen(loadPhoto(`${DATA}/opencv-doc/leuvenA.jpg`, 640, 360, 0), VIDEO.width + 120, VIDEO.height),
    VIDEO,
  );
  writeY4m(y4m.blurred, loadPhoto(`${DATA}/opencv-doc/text_defocus.jpg`, VIDEO.width, VIDEO.height, 40), {
    ...VIDEO,
    frames: 20,
  });
  server = await startDevServer();
});

/** The stored per-photo results of a case, read from the local D1. */
function checksOf(caseId: string) {
  const rows = server.query<{ verdict: string; checks: string }>(
    `select verdict, checks from capture_photos where case_id = '${caseId}' order by created_at`,
  );
  return rows.map((r) => {
    const checks = JSON.parse(r.checks) as Record<string, { status: string; reasons: { code: string }[] }>;
    return {
      verdict: r.verdict,
      recapture: checks.recapture.status,
      camera: checks.camera.status,
      location: checks.location.status,
      cameraReasons: checks.camera.reasons.map((x) => x.code),
    };
  });
}

afterAll(async () => {
  await server?.stop();
  if (videos) rmSync(videos, { recursive: true, force: true });
});

/** A result-push receiver on loopback, as an insurer's endpoint would be: it keeps what it gets and answers 204. */
async function startReceiver(): Promise<{
  url: string;
  received: { headers: Record<string, string>; body: string }[];
  close(): Promise<void>;
}> {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/capture`,
    received,
    close: () => new Promise((r) => receiver.close(() => r())),
  };
}

describe("a live camera pointed at a real scene", () => {
  it("walks three scenes, the case ends closed / io, and the insurer receives the signed result push", async () => {
    const receiver = await startReceiver();
    const secret = `whsec_${Buffer.from("e2e-push-secret-0123456789ab").toString("base64")}`;
    const c = await newCase(server.base, SCENES, { url: receiver.url, secret });
    const chrome = await launchWithCamera(y4m.real);
    try {
      const { page } = await phonePage(chrome.browser, server.base);
      await page.goto(c.captureLink);
      expect(await textOf(page, "h1")).toBe("Photos for your claim");
      await shoot(page, "01-intro-en");
      await page.click("#start");
      await takeAndUse(page, { camera: "02-camera-scene-1", preview: "03-preview" });
      await takeAndUse(page);
      await takeAndUse(page);
      await page.locator("#ready").waitFor({ state: "visible" });
      await shoot(page, "04-all-taken");
      await page.click("#finish");
      await page.locator("#result").waitFor({ state: "visible" });
      expect(
        await textOf(page, "#result-text"),
        JSON.stringify({ status: await caseStatus(server.base, c.apiKey, c.ticketId), checks: checksOf(c.ticketId) }),
      ).toBe("Your photos have been received. There is nothing more to do.");
      await shoot(page, "05-done-io");
      const s = await caseStatus(server.base, c.apiKey, c.ticketId);
      expect(s).toMatchObject({ status: "closed", lastResult: "io", finalDecision: "closed_io", attemptCount: 1 });
      expect(s.events.map((e) => e.action).filter((a) => !a.startsWith("feedback_"))).toEqual([
        "capture_triggered",
        "capture_scene_completed",
        "capture_scene_completed",
        "capture_scene_completed",
        "capture_result_io",
      ]);
      // The close is pushed from the queue to the receiver, signed as Standard Webhooks.
      for (const giveUp = Date.now() + 60_000; receiver.received.length === 0 && Date.now() < giveUp; ) {
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(receiver.received).toHaveLength(1);
      const [push] = receiver.received;
      const payload = new Webhook(secret).verify(push.body, push.headers) as {
        type: string;
        data: Record<string, unknown>;
      };
      expect(payload).toMatchObject({
        type: "capture.closed",
        data: { ticketId: c.ticketId, status: "closed", lastResult: "io", finalDecision: "closed_io" },
      });
      expect(() =>
        new Webhook(`whsec_${Buffer.from("another-secret-0123456789abc").toString("base64")}`).verify(
          push.body,
          push.headers,
        ),
      ).toThrow();
      const afterPush = await caseStatus(server.base, c.apiKey, c.ticketId);
      expect(afterPush.resultPush).toMatchObject({ status: "delivered", statusCode: 204 });
      expect(afterPush.events.map((e) => e.action)).toContain("feedback_pushed");
      await receiver.close();
      const stored = checksOf(c.ticketId);
      expect(stored.map((p) => [p.verdict, p.recapture, p.camera, p.location])).toEqual(
        Array(3).fill(["ok", "pass", "pass", "pass"]),
      );
      await page.goto(c.captureLink);
      expect(await textOf(page, "h1")).toBe("This case is closed");
      await shoot(page, "06-closed");
    } finally {
      await chrome.close();
    }
  });
});

describe("a flaky network", () => {
  it("an upload cut off by a lost connection continues when the phone is back online", async () => {
    const c = await newCase(server.base, [SCENES[0]]);
    const chrome = await launchWithCamera(y4m.real);
    try {
      const { context, page } = await phonePage(chrome.browser, server.base);
      await page.goto(c.captureLink);
      await page.click("#start");
      await page.locator("#shutter:not([disabled])").waitFor();
      await page.click("#shutter");
      await page.locator("#preview").waitFor({ state: "visible" });
      await context.setOffline(true);
      await page.click("#use");
      expect(await textOf(page, "#status")).toMatch(/No connection|Connection problem/);
      await shoot(page, "14-offline");
      await page.waitForTimeout(1500);
      await context.setOffline(false);
      await page.locator("#ready").waitFor({ state: "visible", timeout: 60_000 });
      await page.click("#finish");
      expect(await textOf(page, "#result-title")).toBe("Thank you!");
      expect(await caseStatus(server.base, c.apiKey, c.ticketId)).toMatchObject({ status: "closed", lastResult: "io" });
    } finally {
      await chrome.close();
    }
  });
});

describe("a live camera pointed at a screen", () => {
  it("fails three attempts and ends nicht_io (manual)", async () => {
    const c = await newCase(server.base, SCENES);
    const chrome = await launchWithCamera(y4m.screen);
    try {
      const { page } = await phonePage(chrome.browser, server.base);
      await page.goto(c.captureLink);
      await page.click("#start");
      for (let attempt = 1; attempt <= 3; attempt++) {
        for (let scene = 0; scene < 3; scene++) await takeAndUse(page);
        await page.locator("#ready").waitFor({ state: "visible" });
        await page.click("#finish");
        await page.locator("#result").waitFor({ state: "visible" });
        if (attempt < 3) {
          expect(await textOf(page, "#result-title")).toBe("Please take the photos again");
          if (attempt === 1) await shoot(page, "07-retry");
          await page.click("#again");
        }
      }
      expect(await textOf(page, "#result-text")).toContain("claims handler");
      await shoot(page, "08-done-manual");
      const s = await caseStatus(server.base, c.apiKey, c.ticketId);
      expect(s).toMatchObject({ status: "manual", lastResult: "nicht_io", attemptCount: 3 });
      expect(s.events.at(-1)!.action).toBe("capture_result_nicht_io_final");
      // Failed because the recapture check saw the screen, not for any other reason.
      const stored = checksOf(c.ticketId);
      expect(stored).toHaveLength(9);
      expect(stored.map((p) => [p.verdict, p.recapture])).toEqual(Array(9).fill(["suspicious", "fail"]));
      // The fake camera loops its 12 s video: later shots may repeat an earlier frame (and, the
      // canvas encoder being deterministic, even its bytes) exactly.
      expect(
        stored
          .flatMap((p) => p.cameraReasons)
          .filter((code) => code !== "identical_frame" && code !== "duplicate_file"),
      ).toEqual([]);
    } finally {
      await chrome.close();
    }
  });
});

describe("a blurred scene: the page warns, the policyholder may send anyway", () => {
  it("shows the reasons and ends io_scene_override (manual)", async () => {
    const c = await newCase(server.base, [SCENES[0]]);
    const chrome = await launchWithCamera(y4m.blurred);
    try {
      const { page } = await phonePage(chrome.browser, server.base, "de-DE");
      await page.goto(c.captureLink);
      expect(await textOf(page, "h1")).toBe("Fotos für Ihren Schaden");
      await shoot(page, "09-intro-de");
      await page.click("#start");
      await takeAndUse(page, { warning: "10-scene-warning-de" });
      await page.click("#finish");
      await page.locator("#result").waitFor({ state: "visible" });
      const s = await caseStatus(server.base, c.apiKey, c.ticketId);
      expect({ status: s.status, lastResult: s.lastResult }, JSON.stringify(s.events)).toEqual({
        status: "manual",
        lastResult: "io_scene_override",
      });
    } finally {
      await chrome.close();
    }
  });
});

describe("the policyholder's other options, each with a confirmation", () => {
  it.each([
    [
      "inspection",
      "inspection_requested",
      "11-confirm-inspection",
      "Your request for an on-site inspection has been received. We will contact you.",
    ],
    ["withdraw", "claim_withdrawn", "12-confirm-withdraw", "Your claim has been withdrawn."],
  ])("%s reaches manual / %s", async (button, lastResult, shotName, doneText) => {
    const c = await newCase(server.base, SCENES);
    const chrome = await launchWithCamera(y4m.real);
    try {
      const { page } = await phonePage(chrome.browser, server.base);
      await page.goto(c.captureLink);
      await page.click(`#${button}`);
      await page.locator("#confirm").waitFor({ state: "visible" });
      await shoot(page, shotName);
      await page.click("#confirm-yes");
      expect(await textOf(page, "#result-text")).toBe(doneText);
      expect(await caseStatus(server.base, c.apiKey, c.ticketId)).toMatchObject({ status: "manual", lastResult });
    } finally {
      await chrome.close();
    }
  });
});

describe("a superseded link", () => {
  it("shows a clear page (Polish) and the old link accepts nothing", async () => {
    const c = await newCase(server.base, SCENES);
    const re = await fetch(`${server.base}/capture/retrigger`, {
      method: "POST",
      headers: { "x-api-key": c.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ ticketId: c.ticketId }),
    });
    expect(re.status).toBe(200);
    const chrome = await launchWithCamera(y4m.real);
    try {
      const { page } = await phonePage(chrome.browser, server.base, "pl-PL");
      const res = await page.goto(c.captureLink);
      expect(res!.status()).toBe(410);
      expect(await textOf(page, "h1")).toBe("Ten link został zastąpiony");
      await shoot(page, "13-superseded-pl");
    } finally {
      await chrome.close();
    }
  });
});
