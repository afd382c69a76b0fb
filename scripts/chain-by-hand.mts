// `npm run chain` (with `npm start` running): the notification chain end to end, as a new user would
// walk it — a provider_versand case, its invitation in /dev/outbox, the link opened in Chromium with a
// fake camera (three scenes), the case closed, and the signed result push received on loopback and
// verified with the standardwebhooks package. Reads BASE_URL or PORT, and ADMIN_TOKEN from .dev.vars.
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { readFileSync } from "node:fs";
import { launchWithCamera, phonePage, takeAndUse, textOf } from "../test/browser/harness";
import { loadPhoto, writeY4m } from "../test/browser/y4m";
const base = process.env.BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? "8787"}`;
const adminToken = /^ADMIN_TOKEN=(.*)$/m.exec(readFileSync(".dev.vars", "utf8"))?.[1];
const admin = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };
const received: { headers: Record<string, string>; body: string }[] = [];
const receiver = createServer((req, res) => {
  let b = "";
  req.on("data", (c) => (b += c));
  req.on("end", () => {
    received.push({ headers: req.headers as Record<string, string>, body: b });
    res.writeHead(200).end();
  });
});
await new Promise<void>((r) => receiver.listen(9009, "127.0.0.1", r));
const secret = `whsec_${Buffer.from("chain-by-hand-secret-0123456789").toString("base64")}`;
const account = await (
  await fetch(`${base}/admin/accounts`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({
      name: "Chain",
      communicationMode: "provider_versand",
      push: { url: "http://127.0.0.1:9009/hook", secret },
    }),
  })
).json();
console.log("account", account.accountId);
const created = await fetch(`${base}/capture/link`, {
  method: "POST",
  headers: { "x-api-key": account.apiKey, "content-type": "application/json" },
  body: JSON.stringify({
    caseNumber: `CHAIN-${Date.now()}`,
    vnName: "Anna Schmidt",
    vnEmail: "anna@example.de",
    scenes: [
      { description: "Whole kitchen wall" },
      { description: "Water stain close up" },
      { description: "Floor below the stain" },
    ],
  }),
});
const c = await created.json();
console.log("create", created.status, JSON.stringify(c.notificationStatus));
const outbox = await (await fetch(`${base}/dev/outbox`)).text();
console.log(
  "/dev/outbox lists the invitation with the link:",
  outbox.includes(c.captureLink),
  outbox.includes("anna@example.de"),
);
const dir = mkdtempSync(join(tmpdir(), "chain-"));
writeY4m(join(dir, "real.y4m"), loadPhoto("../shared/data/photos/mate-backgrounds/Dune.jpg", 960, 540, 120), {
  width: 960,
  height: 540,
  frames: 60,
  fps: 5,
});
const chrome = await launchWithCamera(join(dir, "real.y4m"));
const { page } = await phonePage(chrome.browser, base);
await page.goto(c.captureLink);
await page.click("#start");
await takeAndUse(page);
await takeAndUse(page);
await takeAndUse(page);
await page.locator("#ready").waitFor({ state: "visible" });
await page.click("#finish");
await page.locator("#result").waitFor({ state: "visible" });
console.log("capture page:", await textOf(page, "#result-text"));
await chrome.close();
for (const giveUp = Date.now() + 60_000; received.length === 0 && Date.now() < giveUp; )
  await new Promise((r) => setTimeout(r, 250));
const payload = new Webhook(secret).verify(received[0].body, received[0].headers) as {
  type: string;
  data: { status: string; finalDecision: string };
};
console.log("push received and verified:", payload.type, payload.data.status, payload.data.finalDecision);
const status = await (
  await fetch(`${base}/capture/status?ticketId=${c.ticketId}`, { headers: { "x-api-key": account.apiKey } })
).json();
console.log(
  "status:",
  status.status,
  status.lastResult,
  JSON.stringify(status.resultPush),
  status.events.map((e: { action: string }) => e.action).join(", "),
);
receiver.close();
rmSync(dir, { recursive: true, force: true });
