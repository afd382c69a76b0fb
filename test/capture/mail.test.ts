import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import PostalMime from "postal-mime";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { buildMime, renderMail } from "../../src/capture/mail/message";
import { mailProviders, type OutgoingMail } from "../../src/capture/mail/provider";
import type { Env } from "../../src/env";
import { ADMIN, BASE, createAccount, postJson, uniqueCaseNumber } from "../helpers";
import { driveNotification } from "./notification-queue";

/** E-mail invitations (issue 14 part 3): mimetext messages, the send_email binding, /dev/outbox. */
const FROM = "schaden@capture.example";
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((undo) => undo()));

/** A mail provider that keeps what it is given, selected like any other through MAIL_PROVIDER. */
function capturingProvider(fail = false) {
  const sent: OutgoingMail[] = [];
  const name = `test-${crypto.randomUUID()}`;
  cleanups.push(
    mailProviders.add(name, {
      send: async (_env, mail) => {
        if (fail) throw new Error("provider down");
        sent.push(mail);
      },
    }),
  );
  return { sent, env: { ...env, MAIL_FROM: FROM, MAIL_PROVIDER: name } as unknown as Env };
}

/**
 * A provider_versand case created with the test run's settings (no mail provider): its rows stay pending, untouched
 * by the real queue (no provider, no attempt), so the tests drive delivery themselves.
 */
async function invitedCase(language: "de" | "en" | "pl", extra: Record<string, unknown> = {}) {
  const { apiKey } = await createAccount({ communicationMode: "provider_versand", language });
  const res = await postJson(
    "/capture/link",
    {
      caseNumber: uniqueCaseNumber("MAIL"),
      vnName: "Jan Kowalski",
      vnEmail: "jan@example.pl",
      vnPhone: "+48501234567",
      ...extra,
    },
    { "x-api-key": apiKey },
  );
  expect(res.status).toBe(201);
  const { ticketId, captureLink } = await res.json<{ ticketId: string; captureLink: string }>();
  const rows = () =>
    env.DB.prepare("SELECT id, channel, status, attempts FROM outbox WHERE case_id = ? ORDER BY channel")
      .bind(ticketId)
      .all<{ id: string; channel: string; status: string; attempts: number }>();
  return { ticketId, captureLink, rows: async () => (await rows()).results };
}

describe("the message", () => {
  it.each([
    ["de", "Bitte fotografieren Sie Ihren Schaden", "Guten Tag Jan,", "Fotos aufnehmen"],
    ["en", "Please take photos of your damage", "Hello Jan,", "Take photos"],
    ["pl", "Prosimy o zdjęcia szkody", "Dzień dobry Jan,", "Zrób zdjęcia"],
  ] as const)("%s: subject, greeting, link in text and HTML", (language, subject, greeting, button) => {
    const mail = renderMail({
      kind: "invitation",
      language,
      link: "https://capture.test/c/abc",
      vnName: "Jan",
      customNote: null,
    });
    expect(mail.subject).toBe(subject);
    expect(mail.text.split("\n")[0]).toBe(greeting);
    expect(mail.text).toContain("https://capture.test/c/abc");
    expect(mail.html).toContain(`<html lang="${language}">`);
    expect(mail.html).toContain(`href="https://capture.test/c/abc"`);
    expect(mail.html).toContain(button);
  });

  it("a reminder has its own subject and words", () => {
    expect(
      renderMail({ kind: "reminder", language: "de", link: "https://x.test/c/1", vnName: null, customNote: null }),
    ).toMatchObject({
      subject: "Erinnerung: Fotos zu Ihrem Schaden",
      text: expect.stringMatching(/^Guten Tag,\n\nWir haben noch keine Fotos/),
    });
  });

  it("name and note are escaped in the HTML part, kept as written in the text part", () => {
    const mail = renderMail({
      kind: "invitation",
      language: "en",
      link: "https://x.test/c/1",
      vnName: "<b>Eve</b>",
      customNote: 'Bring "the" <script>x</script>',
    });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<b>Eve</b>");
    expect(mail.html).toContain("&#60;script&#62;");
    expect(mail.text).toContain('Bring "the" <script>x</script>');
  });

  it("the MIME message (mimetext) parses back to the same subject, text and HTML, in UTF-8", async () => {
    const rendered = renderMail({
      kind: "invitation",
      language: "pl",
      link: "https://capture.test/c/ąę",
      vnName: "Łucja Żółć",
      customNote: "Proszę sfotografować tył pojazdu.",
    });
    const raw = buildMime({ from: FROM, to: "lucja@example.pl", messageId: "row-1", rendered });
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    const parsed = await PostalMime.parse(raw);
    expect(parsed.subject).toBe("Prosimy o zdjęcia szkody");
    expect(parsed.from?.address).toBe(FROM);
    expect(parsed.to?.map((a) => a.address)).toEqual(["lucja@example.pl"]);
    expect(parsed.messageId).toBe("<row-1@capture.example>");
    expect(parsed.text?.replace(/\r\n/g, "\n").trimEnd()).toBe(rendered.text.trimEnd());
    expect(parsed.html?.replace(/\r\n/g, "\n").trimEnd()).toBe(rendered.html.trimEnd());
  });
});

describe("sending invitations", () => {
  it("the e-mail row goes out in the account's language and is marked sent (no SMS row: no SMS credentials)", async () => {
    const { sent, env: testEnv } = capturingProvider();
    const c = await invitedCase("pl", { customNote: "Zdjęcie tablicy rejestracyjnej." });
    for (const row of await c.rows()) expect((await driveNotification(row.id, testEnv)).explicitAcks).toHaveLength(1);
    const rows = await c.rows();
    expect(rows.map((r) => [r.channel, r.status])).toEqual([["email", "sent"]]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ from: FROM, to: "jan@example.pl" });
    const parsed = await PostalMime.parse(sent[0].raw);
    expect(parsed.subject).toBe("Prosimy o zdjęcia szkody");
    expect(parsed.text).toContain(c.captureLink);
    expect(parsed.text).toContain("Zdjęcie tablicy rejestracyjnej.");

    // A duplicate message for a sent row sends nothing.
    await driveNotification(rows[0].id, testEnv);
    expect(sent).toHaveLength(1);
  });

  it("through the real send_email binding (MAILER), the runtime accepts the message", async () => {
    const c = await invitedCase("de");
    const email = (await c.rows()).find((r) => r.channel === "email")!;
    const result = await driveNotification(email.id, { ...env, MAIL_FROM: FROM } as unknown as Env);
    expect(result.explicitAcks).toEqual([`n-${email.id}`]);
    expect((await c.rows()).find((r) => r.channel === "email")?.status).toBe("sent");
  });

  it("a provider error retries the message and leaves the row pending", async () => {
    const { env: testEnv } = capturingProvider(true);
    const c = await invitedCase("en");
    const email = (await c.rows()).find((r) => r.channel === "email")!;
    const result = await driveNotification(email.id, testEnv);
    expect(result.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual([`n-${email.id}`]);
    expect((await c.rows()).find((r) => r.channel === "email")).toMatchObject({
      status: "pending",
      attempts: email.attempts + 1,
    });
  });

  it("the account language is an admin setting (de, en, pl)", async () => {
    const res = await SELF.fetch(`${BASE}/admin/accounts`, {
      method: "POST",
      headers: ADMIN,
      body: JSON.stringify({ name: "X", communicationMode: "eigenversand", language: "fr" }),
    });
    expect(res.status).toBe(400);
    expect((await res.json<{ errors: { field: string }[] }>()).errors[0].field).toBe("language");
  });
});

describe("/dev/outbox", () => {
  async function devFetch(path: string, devEnv: Partial<Env>) {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(`${BASE}${path}`), { ...env, ...devEnv } as unknown as Env, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  }

  it("does not exist unless DEV_OUTBOX=on", async () => {
    expect((await SELF.fetch(`${BASE}/dev/outbox`)).status).toBe(404);
    expect((await devFetch("/dev/outbox", { DEV_OUTBOX: "off" })).status).toBe(404);
  });

  it("with DEV_OUTBOX=on lists the messages with their rendered e-mail and the raw .eml", async () => {
    const c = await invitedCase("en");
    const page = await devFetch("/dev/outbox", { DEV_OUTBOX: "on" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Please take photos of your damage");
    expect(html).toContain(c.captureLink); // inside the escaped srcdoc and the plain text
    const email = (await c.rows()).find((r) => r.channel === "email")!;
    const eml = await devFetch(`/dev/outbox/${email.id}.eml`, { DEV_OUTBOX: "on" });
    expect(eml.headers.get("content-type")).toBe("message/rfc822");
    expect((await PostalMime.parse(await eml.text())).subject).toBe("Please take photos of your damage");
  });
});
