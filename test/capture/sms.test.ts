import { env } from "cloudflare:test";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { renderSms } from "../../src/capture/sms/message";
import { fitSms, MAX_SMS_SEGMENTS, smsLength } from "../../src/capture/sms/segments";
import type { AccountRecord } from "../../src/accounts/service";
import { invitationRows, notificationStatus, smsOffer, type OutboxRow } from "../../src/capture/notifications";
import { getDb } from "../../src/db/client";
import { outbox } from "../../src/db/schema";
import type { Env } from "../../src/env";
import { createAccount, postJson, uniqueCaseNumber } from "../helpers";
import { driveNotification } from "./notification-queue";

/**
 * SMS invitations through a provider in Twilio's Messages API shape at https://sms.test, mocked
 * with MSW (it intercepts the Worker's outbound fetch in the test isolate). The test run's own
 * settings have no SMS credentials; a case created with them gets an SMS row, which the real queue
 * (without credentials) leaves pending, and the tests then drive delivery with createMessageBatch.
 */
const SID = "AC0123456789abcdef0123456789abcdef";
const TOKEN = "test-sms-token";
const SMS_URL = `https://sms.test/2010-04-01/Accounts/${SID}/Messages.json`;
const SMS_ENV = {
  SMS_API_BASE_URL: "https://sms.test/",
  SMS_ACCOUNT_SID: SID,
  SMS_AUTH_TOKEN: TOKEN,
  SMS_FROM: "+4930123456",
};
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

interface Received {
  headers: Record<string, string>;
  form: URLSearchParams;
}

/** The provider answers with `statuses` in turn (the last one repeats) and records every request. */
function provider(statuses: number[]): Received[] {
  const received: Received[] = [];
  server.use(
    http.post(SMS_URL, async ({ request }) => {
      received.push({ headers: Object.fromEntries(request.headers), form: new URLSearchParams(await request.text()) });
      const status = statuses[Math.min(received.length - 1, statuses.length - 1)];
      if (status >= 400)
        return HttpResponse.json(
          {
            code: status === 400 ? 21211 : 20500,
            message: status === 400 ? "The 'To' number is not a valid phone number." : "Internal error",
            status,
          },
          { status },
        );
      return HttpResponse.json({ sid: `SM${received.length}`, status: "queued" }, { status });
    }),
  );
  return received;
}

/**
 * A provider_versand case. The test run's settings have no SMS credentials, and the case is written
 * by its CaseLock with those settings, so with `sms` the test adds the SMS row exactly as a
 * deployment with credentials writes it (invitationRows with SMS offered) and drives it itself.
 */
async function invitedCase(
  sms: Partial<Env> | null,
  language: "de" | "en" | "pl" = "de",
  extra: Record<string, unknown> = {},
) {
  const { accountId, apiKey } = await createAccount({ communicationMode: "provider_versand", language });
  const input: Record<string, unknown> = {
    caseNumber: uniqueCaseNumber("SMS"),
    vnName: "Jan Kowalski",
    vnPhone: "+48501234567",
    ...extra,
  };
  const res = await postJson("/capture/link", input, { "x-api-key": apiKey });
  expect(res.status).toBe(201);
  const body = await res.json<{
    ticketId: string;
    captureLink: string;
    notificationStatus: { emailSent: boolean; smsSent: boolean };
  }>();
  const testEnv = { ...env, ...sms } as unknown as Env;
  let smsRows: OutboxRow[] = [];
  if (sms) {
    const account = { id: accountId, communicationMode: "provider_versand", language } as unknown as AccountRecord;
    smsRows = invitationRows(
      account,
      {
        caseId: body.ticketId,
        vnName: "Jan Kowalski",
        vnEmail: null,
        vnPhone: "+48501234567",
        customNote: (input.customNote as string | undefined) ?? null,
      },
      body.captureLink,
      "invitation",
      smsOffer(testEnv),
    );
    await getDb(env.DB).insert(outbox).values(smsRows);
  }
  const rows = async () =>
    (
      await env.DB.prepare(
        "SELECT id, channel, status, attempts, payload FROM outbox WHERE case_id = ? AND channel = 'sms'",
      )
        .bind(body.ticketId)
        .all<{ id: string; channel: string; status: string; attempts: number; payload: string }>()
    ).results;
  return { ...body, smsRows, testEnv, rows };
}

describe("SMS length", () => {
  it("GSM-7: 160 septets in one part, 153 per part beyond; extension characters count two", () => {
    expect(smsLength("a".repeat(160))).toEqual({ encoding: "GSM-7", units: 160, segments: 1 });
    expect(smsLength("a".repeat(161))).toEqual({ encoding: "GSM-7", units: 161, segments: 2 });
    expect(smsLength("a".repeat(306)).segments).toBe(2);
    expect(smsLength("a".repeat(307)).segments).toBe(3);
    expect(smsLength(`${"a".repeat(159)}€`)).toEqual({ encoding: "GSM-7", units: 161, segments: 2 });
    expect(smsLength("Schäden für Straße").encoding).toBe("GSM-7");
  });

  it("UCS-2 as soon as one character is outside GSM-7: 70 in one part, 67 per part", () => {
    expect(smsLength(`${"a".repeat(69)}ę`)).toEqual({ encoding: "UCS-2", units: 70, segments: 1 });
    expect(smsLength(`${"a".repeat(70)}ę`)).toEqual({ encoding: "UCS-2", units: 71, segments: 2 });
    expect(smsLength(`${"a".repeat(134)}ł`).segments).toBe(3);
  });

  it("a long note is shortened (never the link), and stays within the part limit in both encodings", () => {
    const link = "https://capture.test/c/abcdefghijklmnopqrstuvwxyz0123456789";
    for (const language of ["de", "pl"] as const) {
      const sms = renderSms("invitation", {
        link,
        language,
        customNote: "Bitte fotografieren Sie auch die Rückseite des Fahrzeugs. ".repeat(20),
      });
      expect(sms.body).toContain(link);
      expect(sms.body.endsWith("...")).toBe(true);
      expect(sms.segments).toBe(MAX_SMS_SEGMENTS);
      expect(sms.encoding).toBe(language === "de" ? "GSM-7" : "UCS-2");
    }
    expect(fitSms("short", "note")).toBe("short\nnote");
    expect(renderSms("reminder", { link, language: "en", customNote: null })).toMatchObject({
      body: `Reminder: please take the photos of your damage: ${link}`,
      segments: 1,
      encoding: "GSM-7",
    });
  });
});

describe("sending SMS", () => {
  it("SMS is offered only with complete credentials (or SMS_PROVIDER=none switches it off)", () => {
    const offer = (settings: Partial<Env>) => smsOffer({ ...env, ...settings } as unknown as Env);
    expect(offer(SMS_ENV)).toEqual({ offered: true, reason: undefined });
    expect(offer({ SMS_ACCOUNT_SID: SID, SMS_AUTH_TOKEN: TOKEN })).toEqual({
      offered: false,
      reason: "no SMS credentials (SMS_FROM missing)",
    });
    expect(offer({ ...SMS_ENV, SMS_PROVIDER: "none" })).toEqual({ offered: false, reason: "SMS_PROVIDER is none" });
    expect(offer({ SMS_PROVIDER: "twilio", SMS_ACCOUNT_SID: SID })).toMatchObject({
      offered: false,
      reason: "SMS_PROVIDER is twilio but SMS_AUTH_TOKEN, SMS_FROM missing",
    });
  });

  it("without credentials no SMS is offered: smsSent false, no SMS row, the reason logged", async () => {
    const warn = vi.spyOn(console, "warn");
    const c = await invitedCase(null, "de", { vnEmail: "jan@example.pl" });
    // (No mail provider in the test run either: the e-mail row waits, emailSent is false too.)
    expect(c.notificationStatus).toEqual({ emailSent: false, smsSent: false });
    expect(await c.rows()).toEqual([]);
    expect(warn.mock.calls.map((call) => String(call[0])).join("\n")).toMatch(
      /"event":"sms.not_offered".*no SMS credentials/,
    );
  });

  it("with credentials: form-encoded POST with Basic auth, To/From/Body with the link, row sent with its part count", async () => {
    const received = provider([201]);
    const c = await invitedCase(SMS_ENV, "de", { customNote: "Bitte auch das Kennzeichen." });
    // What the create call answers in a deployment with credentials.
    expect(notificationStatus(c.smsRows)).toEqual({ emailSent: false, smsSent: true });
    const [row] = await c.rows();
    expect(row).toMatchObject({ channel: "sms", status: "pending" });
    expect((await driveNotification(row.id, c.testEnv)).explicitAcks).toEqual([`n-${row.id}`]);
    expect(received).toHaveLength(1);
    expect(received[0].headers.authorization).toBe(`Basic ${btoa(`${SID}:${TOKEN}`)}`);
    expect(received[0].headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(received[0].form)).toEqual({
      To: "+48501234567",
      From: "+4930123456",
      Body: `Ihre Versicherung bittet Sie, Ihren Schaden zu fotografieren: ${c.captureLink}\nHinweis: Bitte auch das Kennzeichen.`,
    });
    const [sent] = await c.rows();
    expect(sent.status).toBe("sent");
    expect(JSON.parse(sent.payload).sms).toEqual({ segments: 1, encoding: "GSM-7" });

    // A duplicate message for a sent row sends nothing.
    await driveNotification(row.id, c.testEnv);
    expect(received).toHaveLength(1);
  });

  it("a provider outage (5xx) is retried from the queue, then accepted", async () => {
    const received = provider([503, 201]);
    const c = await invitedCase(SMS_ENV, "pl");
    const [row] = await c.rows();
    const first = await driveNotification(row.id, c.testEnv);
    expect(first.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual([`n-${row.id}`]);
    expect((await c.rows())[0]).toMatchObject({ status: "pending", attempts: row.attempts + 1 });
    expect((await driveNotification(row.id, c.testEnv)).explicitAcks).toEqual([`n-${row.id}`]);
    expect(received).toHaveLength(2);
    expect(received[1].form.get("Body")).toBe(`Ubezpieczyciel prosi o zdjęcia szkody: ${c.captureLink}`);
    const [sent] = await c.rows();
    expect(sent.status).toBe("sent");
    expect(JSON.parse(sent.payload).sms.encoding).toBe("UCS-2");
  });

  it("a refused number (4xx) marks the row failed without retrying", async () => {
    const received = provider([400]);
    const c = await invitedCase(SMS_ENV, "en");
    const [row] = await c.rows();
    const result = await driveNotification(row.id, c.testEnv);
    expect(result.explicitAcks).toEqual([`n-${row.id}`]);
    expect(result.retryMessages).toEqual([]);
    expect((await c.rows())[0].status).toBe("failed");
    expect(received).toHaveLength(1);
  });

  it("a Messaging Service SID as SMS_FROM is sent as MessagingServiceSid", async () => {
    const received = provider([201]);
    const c = await invitedCase({ ...SMS_ENV, SMS_FROM: `MG${"a".repeat(32)}` }, "en");
    const [row] = await c.rows();
    await driveNotification(row.id, c.testEnv);
    expect(received[0].form.get("MessagingServiceSid")).toBe(`MG${"a".repeat(32)}`);
    expect(received[0].form.has("From")).toBe(false);
    expect(received[0].form.get("Body")).toBe(`Your insurer asks you to take photos of your damage: ${c.captureLink}`);
  });
});
