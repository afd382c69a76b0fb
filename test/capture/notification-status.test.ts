import { env } from "cloudflare:test";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AccountRecord } from "../../src/accounts/service";
import { mailProviders } from "../../src/capture/mail/provider";
import { dispatchNotifications } from "../../src/capture/notification-dispatch";
import { invitationRows, smsOffer } from "../../src/capture/notifications";
import { getDb } from "../../src/db/client";
import { outbox } from "../../src/db/schema";
import type { Env } from "../../src/env";
import { BASE, createAccount, fetchWith, uniqueCaseNumber } from "../helpers";
import { driveNotification } from "./notification-queue";

/**
 * notificationStatus (spec 2.3) says what a provider accepted during the create or re-trigger call,
 * and every try is recorded (issue 14). The calls go to the Worker with a test mail provider or
 * SMS credentials (fetchWith); the test run's own settings have neither.
 */
const cleanups: (() => void)[] = [];
const sms = setupServer();
beforeAll(() => sms.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanups.splice(0).forEach((undo) => undo());
  sms.resetHandlers();
});
afterAll(() => sms.close());

/** Settings with a mail provider that accepts, or throws while `down.now` is true. */
function mailSettings(down = { now: false }) {
  const name = `test-${crypto.randomUUID()}`;
  const accepted: string[] = [];
  cleanups.push(
    mailProviders.add(name, {
      send: async (_env, mail) => {
        if (down.now) throw new Error("mail provider unavailable (503)");
        accepted.push(mail.to);
      },
    }),
  );
  return { accepted, down, env: { ...env, MAIL_FROM: "schaden@capture.example", MAIL_PROVIDER: name } as Env };
}

const SMS_ENV = {
  SMS_API_BASE_URL: "https://sms.test/",
  SMS_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
  SMS_AUTH_TOKEN: "test-sms-token",
  SMS_FROM: "+4930123456",
};

async function call(settings: Env, path: string, body: unknown, apiKey: string) {
  const request = new Request(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": apiKey },
    body: JSON.stringify(body),
  });
  const res = await fetchWith(settings, request);
  return { status: res.status, body: await res.json<{ ticketId: string; notificationStatus: unknown }>() };
}

async function attemptsOf(ticketId: string) {
  const { results } = await env.DB.prepare(
    `SELECT o.channel, o.status, a.attempt, a.outcome, a.detail FROM notification_attempts a
     JOIN outbox o ON o.id = a.outbox_id WHERE o.case_id = ? ORDER BY o.created_at, a.attempt`,
  )
    .bind(ticketId)
    .all<{ channel: string; status: string; attempt: number; outcome: string; detail: string | null }>();
  return results;
}

const invitee = { vnName: "Erika Mustermann", vnEmail: "erika@example.com" };

describe("notificationStatus says what a provider accepted (spec 2.3)", () => {
  it("an e-mail the provider accepts during the call: emailSent true, one accepted attempt", async () => {
    const mail = mailSettings();
    const { apiKey } = await createAccount({ communicationMode: "provider_versand" });
    const created = await call(mail.env, "/capture/link", { caseNumber: uniqueCaseNumber(), ...invitee }, apiKey);
    expect(created.status).toBe(201);
    expect(created.body.notificationStatus).toEqual({ emailSent: true, smsSent: false });
    expect(mail.accepted).toEqual(["erika@example.com"]);
    expect(await attemptsOf(created.body.ticketId)).toMatchObject([
      { channel: "email", status: "sent", attempt: 1, outcome: "accepted" },
    ]);
  });

  it("a provider outage: emailSent false, the failed try recorded, the queue's retry accepted once it is back", async () => {
    const mail = mailSettings({ now: true });
    const { apiKey } = await createAccount({ communicationMode: "provider_versand" });
    const created = await call(mail.env, "/capture/link", { caseNumber: uniqueCaseNumber(), ...invitee }, apiKey);
    expect(created.body.notificationStatus).toEqual({ emailSent: false, smsSent: false });
    const [failed] = await attemptsOf(created.body.ticketId);
    expect(failed).toMatchObject({ status: "pending", attempt: 1, outcome: "failed" });
    expect(failed.detail).toContain("503");

    const { results } = await env.DB.prepare("SELECT id FROM outbox WHERE case_id = ?")
      .bind(created.body.ticketId)
      .all<{ id: string }>();
    expect((await driveNotification(results[0].id, mail.env)).retryMessages).toHaveLength(1);
    mail.down.now = false;
    expect((await driveNotification(results[0].id, mail.env)).explicitAcks).toHaveLength(1);
    expect((await attemptsOf(created.body.ticketId)).map((a) => [a.attempt, a.outcome, a.status])).toEqual([
      [1, "failed", "sent"],
      [2, "failed", "sent"],
      [3, "accepted", "sent"],
    ]);
    expect(mail.accepted).toEqual(["erika@example.com"]);
  });

  it("an SMS the provider accepts: smsSent true with the provider's message id recorded", async () => {
    sms.use(
      http.post("https://sms.test/2010-04-01/Accounts/:sid/Messages.json", () =>
        HttpResponse.json({ sid: "SM42", status: "queued" }, { status: 201 }),
      ),
    );
    // The case's rows are written by its CaseLock with the test run's settings (no SMS credentials), so the SMS row
    // is added here as a deployment with credentials writes it, and handed to the providers as a create call does.
    const { accountId, apiKey } = await createAccount({ communicationMode: "provider_versand" });
    const created = await call(env, "/capture/link", { caseNumber: uniqueCaseNumber(), ...invitee }, apiKey);
    const settings = { ...env, ...SMS_ENV } as Env;
    const account = { id: accountId, communicationMode: "provider_versand", language: "pl" } as AccountRecord;
    const target = {
      caseId: created.body.ticketId,
      vnName: "Jan",
      vnEmail: null,
      vnPhone: "+48501234567",
      customNote: null,
    };
    const rows = invitationRows(account, target, "https://capture.test/c/x", "invitation", smsOffer(settings));
    await getDb(env.DB).insert(outbox).values(rows);
    expect(await dispatchNotifications(settings, [rows[0].id!])).toEqual({ emailSent: false, smsSent: true });
    expect(await attemptsOf(created.body.ticketId)).toMatchObject([
      { channel: "sms", status: "sent", attempt: 1, outcome: "accepted", detail: "SM42" },
    ]);
  });

  it("a re-trigger sends the invitation again and reports its acceptance", async () => {
    const mail = mailSettings();
    const { apiKey } = await createAccount({ communicationMode: "provider_versand" });
    const caseNumber = uniqueCaseNumber();
    const created = await call(mail.env, "/capture/link", { caseNumber, ...invitee }, apiKey);
    const again = await call(mail.env, "/capture/retrigger", { ticketId: created.body.ticketId }, apiKey);
    expect(again.status).toBe(200);
    expect(again.body.notificationStatus).toEqual({ emailSent: true, smsSent: false });
    expect(mail.accepted).toHaveLength(2);
    expect((await attemptsOf(created.body.ticketId)).map((a) => a.outcome)).toEqual(["accepted", "accepted"]);
  });
});
