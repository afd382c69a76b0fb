/// <reference types="node" />
/** Chromium with a fake camera, a phone-sized page, and the API calls a test needs. */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ADMIN_TOKEN } from "./server";

export const PHONE = { width: 390, height: 844 };
export const HOME = { latitude: 52.5163, longitude: 13.3777, accuracy: 14 };

/** Screenshots go to docs/screenshots with UPDATE_SCREENSHOTS=1, else to a temp folder. */
export const SHOT_DIR = process.env.UPDATE_SCREENSHOTS
  ? join(process.cwd(), "docs/screenshots")
  : mkdtempSync(join(tmpdir(), "capture-shots-"));
mkdirSync(SHOT_DIR, { recursive: true });

export async function launchWithCamera(y4m: string): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${y4m}`,
    ],
  });
  // playwright gives every launch a fresh temporary profile (the notes' --user-data-dir).
  return { browser, close: () => browser.close() };
}

export async function phonePage(
  browser: Browser,
  base: string,
  locale = "en-GB",
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale,
    geolocation: HOME,
    permissions: ["geolocation", "camera"],
  });
  await context.grantPermissions(["geolocation", "camera"], { origin: base });
  const page = await context.newPage();
  page.on("pageerror", (err) => console.error("page error:", err));
  return { context, page };
}

export async function newCase(
  base: string,
  scenes: string[],
  push?: { url: string; secret: string },
): Promise<{ apiKey: string; ticketId: string; captureLink: string }> {
  const account = (await (
    await fetch(`${base}/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "E2E Insurer", communicationMode: "eigenversand", ...(push && { push }) }),
    })
  ).json()) as { apiKey: string };
  const res = await fetch(`${base}/capture/link`, {
    method: "POST",
    headers: { "x-api-key": account.apiKey, "content-type": "application/json" },
    body: JSON.stringify({
      caseNumber: `E2E-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`,
      scenes: scenes.map((description) => ({ description })),
      customNote: "Please photograph the water damage on the kitchen wall, including the floor below.",
    }),
  });
  const body = (await res.json()) as { ticketId: string; captureLink: string };
  return { apiKey: account.apiKey, ...body };
}

export async function caseStatus(base: string, apiKey: string, ticketId: string) {
  const res = await fetch(`${base}/capture/status?ticketId=${ticketId}`, { headers: { "x-api-key": apiKey } });
  return res.json() as Promise<{
    status: string;
    lastResult: string;
    attemptCount: number;
    finalDecision: string | null;
    events: { action: string }[];
    resultPush: { status: string; statusCode: number | null } | null;
  }>;
}

export async function shoot(page: Page, name: string) {
  await page.screenshot({ path: join(SHOT_DIR, `${name}.png`) });
}

/** One scene: shutter, preview, use (or send anyway after a failed scene check). */
export async function takeAndUse(page: Page, shots?: { camera?: string; preview?: string; warning?: string }) {
  await page.locator("#camera").waitFor({ state: "visible" });
  await page.locator("#shutter:not([disabled])").waitFor();
  // Chromium's fake camera plays a 5 fps file: two shots within one frame are the same JPEG, which the
  // camera check rightly refuses as a duplicate file (a real sensor never repeats a frame). Let at
  // least three frames pass, so a busy machine does not make the test take the same frame twice.
  await page.waitForTimeout(700);
  if (shots?.camera) await shoot(page, shots.camera);
  await page.click("#shutter");
  await page.locator("#preview").waitFor({ state: "visible" });
  if (shots?.preview) await shoot(page, shots.preview);
  await page.click("#use");
  // Either the next step appears, or the scene check warns (then: send anyway).
  // (No waitForFunction: the page's CSP forbids evaluating strings, which is as it should be.)
  await page
    .locator("#preview[hidden], #send-anyway:not([hidden])")
    .first()
    .waitFor({ state: "attached", timeout: 60_000 });
  if (await page.locator("#send-anyway").isVisible()) {
    if (shots?.warning) await shoot(page, shots.warning);
    await page.click("#send-anyway");
    await page.locator("#preview").waitFor({ state: "hidden" });
  }
}

/** The text of an element once it is visible. */
export async function textOf(page: Page, selector: string): Promise<string> {
  const locator = page.locator(selector).first();
  await locator.waitFor({ state: "visible" });
  return (await locator.innerText()).trim();
}
