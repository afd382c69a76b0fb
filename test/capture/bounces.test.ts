import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { mailProviders, type OutgoingMail } from "../../src/capture/mail/provider";
import type { Env } from "../../src/env";
import { BASE, createAccount, postJson, uniqueCaseNumber } from "../helpers";

/** Bounces (RFC 3464 delivery-status notifications) fed to the Worker's `email` handler. */
const FROM = "schaden@capture.example";
const cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.splice(0).forEach((undo) => undo());
  vi.restoreAllMocks();
});

/** A provider_versand case whose invitation e-mail went out through a capturing provider. */
async function sentInvitation() {
  const sent: OutgoingMail[] = [];
  const name = `test-${crypto.randomUUID()}`;
  cleanups.push(mailProviders.add(name, { send: async (_env, mail) => void sent.push(mail) }));
  const recipient = `jan-${crypto.randomUUID().slice(0, 8)}@example.pl`;
  const { apiKey } = await createAccount({ communicationMode: "provider_versand" });
  const res = await postJson(
    "/capture/link",
    { caseNumber: uniqueCaseNumber("BOUNCE"), vnName: "Jan", vnEmail: recipient },
    { "x-api-key": apiKey },
  );
  const { ticketId } = await res.json<{ ticketId: string }>();
  const row = async () =>
    (await env.DB.prepare("SELECT id, status, attempts FROM outbox WHERE case_id = ?")
      .bind(ticketId)
      .first<{ id: string; status: string; attempts: number }>())!;
  // The test run has no mail provider: the row waits, untouched by the real queue, for the delivery driven here.
  const { id } = await row();
  const batch = createMessageBatch("capture-verify-jobs", [
    { id: `n-${id}`, timestamp: new Date(), attempts: 1, body: { type: "notification", outboxId: id } },
  ]);
  await worker.queue(batch, { ...env, MAIL_FROM: FROM, MAIL_PROVIDER: name } as unknown as Env);
  await getQueueResult(batch, createExecutionContext());
  expect((await row()).status).toBe("sent");
  const status = async () =>
    (await SELF.fetch(`${BASE}/capture/status?ticketId=${ticketId}`, { headers: { "x-api-key": apiKey } })).json<{
      events: { action: string; actor: string }[];
    }>();
  return { outboxId: id, recipient, raw: sent[0].raw, row, status };
}

/** An RFC 3464 bounce as an MTA writes it: human part, delivery-status part, the original's headers. */
function dsn(recipient: string, returnedHeaders: string, action = "failed") {
  return [
    "Return-Path: <>",
    "From: Mail Delivery System <MAILER-DAEMON@mx.example.net>",
    `To: ${FROM}`,
    "Subject: Undelivered Mail Returned to Sender",
    "Date: Tue, 24 Nov 2026 10:00:05 +0000",
    "Message-ID: <20261124100005.ABC@mx.example.net>",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="8B1F2C.1764000005/mx.example.net"',
    "",
    "This is a MIME-encapsulated message.",
    "",
    "--8B1F2C.1764000005/mx.example.net",
    "Content-Description: Notification",
    "Content-Type: text/plain; charset=us-ascii",
    "",
    "I'm sorry to have to inform you that your message could not",
    "be delivered to one or more recipients.",
    "",
    "--8B1F2C.1764000005/mx.example.net",
    "Content-Description: Delivery report",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.example.net",
    "X-Postfix-Queue-ID: 8B1F2C",
    "Arrival-Date: Tue, 24 Nov 2026 10:00:00 +0000",
    "",
    `Final-Recipient: rfc822; ${recipient}`,
    `Original-Recipient: rfc822;${recipient}`,
    `Action: ${action}`,
    "Status: 5.1.1",
    "Remote-MTA: dns; mail.example.pl",
    `Diagnostic-Code: smtp; 550 5.1.1 <${recipient}>: Recipient address rejected:`,
    "    User unknown in virtual mailbox table",
    "",
    "--8B1F2C.1764000005/mx.example.net",
    "Content-Description: Undelivered Message Headers",
    "Content-Type: text/rfc822-headers",
    "",
    returnedHeaders,
    "",
    "--8B1F2C.1764000005/mx.example.net--",
    "",
  ].join("\r\n");
}

/** A ForwardableEmailMessage as the runtime hands it to `email()`. */
function inbound(raw: string) {
  const bytes = new TextEncoder().encode(raw);
  return {
    from: "MAILER-DAEMON@mx.example.net",
    to: FROM,
    headers: new Headers(),
    raw: new ReadableStream({
      start: (c) => {
        c.enqueue(bytes);
        c.close();
      },
    }),
    rawSize: bytes.length,
    setReject: vi.fn(),
    forward: vi.fn(),
    reply: vi.fn(),
  } as unknown as ForwardableEmailMessage;
}

async function receive(raw: string) {
  await worker.email(inbound(raw), env as unknown as Env);
}

describe("bounces", () => {
  it("the sent e-mail carries X-Outbox-Id; a DSN returning its headers fails the row and appends invitation_bounced, once", async () => {
    const c = await sentInvitation();
    expect(c.raw).toMatch(new RegExp(`^X-Outbox-Id: ${c.outboxId}\\r?$`, "m"));
    const headers = c.raw.split(/\r?\n\r?\n/)[0];
    await receive(dsn(c.recipient, headers));
    expect((await c.row()).status).toBe("failed");
    const events = (await c.status()).events;
    expect(events.at(-1)).toMatchObject({ action: "invitation_bounced", actor: "system" });

    await receive(dsn(c.recipient, headers)); // the same bounce again
    expect((await c.status()).events.filter((e) => e.action === "invitation_bounced")).toHaveLength(1);
  });

  it("without the original's headers the bounce is matched by the failed recipient", async () => {
    const c = await sentInvitation();
    await receive(dsn(c.recipient, "Subject: (headers not returned)"));
    expect((await c.row()).status).toBe("failed");
    expect((await c.status()).events.at(-1)?.action).toBe("invitation_bounced");
  });

  it("a delay notice (Action: delayed) and ordinary mail change nothing and are logged", async () => {
    const c = await sentInvitation();
    const log = vi.spyOn(console, "log");
    await receive(dsn(c.recipient, c.raw.split(/\r?\n\r?\n/)[0], "delayed"));
    await receive(
      `From: jan@example.pl\r\nTo: ${FROM}\r\nSubject: Re: Bitte\r\nMessage-ID: <r1@example.pl>\r\n\r\nDanke, mache ich.\r\n`,
    );
    expect((await c.row()).status).toBe("sent");
    expect((await c.status()).events.some((e) => e.action === "invitation_bounced")).toBe(false);
    const logged = log.mock.calls.map((call) => String(call[0])).join("\n");
    expect(logged).toContain('"reason":"delivery status delayed"');
    expect(logged).toContain('"reason":"not a delivery status notification"');
  });
});
