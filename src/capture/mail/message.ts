import { createMimeMessage } from "mimetext/browser";
import { mailLanguages, mailTexts, type MailLanguage } from "./texts";

/** What an invitation or reminder says: from the outbox row's payload. */
export interface MailContent {
  kind: "invitation" | "reminder";
  language: MailLanguage;
  link: string;
  vnName: string | null;
  customNote: string | null;
}

/** The three renderings of one message. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** A supported language, or German (the service's first market) for anything else. */
export function mailLanguage(value: unknown): MailLanguage {
  return (mailLanguages as readonly unknown[]).includes(value) ? (value as MailLanguage) : "de";
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Subject, plain text and HTML of the policyholder's message. Name and note are escaped in HTML. */
export function renderMail(content: MailContent): RenderedMail {
  const t = mailTexts[content.language];
  const note = content.customNote?.trim() || null;
  const text = [
    t.greeting(content.vnName),
    "",
    t.intro[content.kind],
    "",
    content.link,
    ...(note ? ["", t.noteFromInsurer, note] : []),
    "",
    "-- ",
    t.footer,
  ].join("\n");
  const link = escapeHtml(content.link);
  const html = `<!doctype html>
<html lang="${content.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(t.subject[content.kind])}</title></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;line-height:1.5;color:#1a1a1a;max-width:560px;margin:0 auto;padding:16px">
<p>${escapeHtml(t.greeting(content.vnName))}</p>
<p>${escapeHtml(t.intro[content.kind])}</p>
<p><a href="${link}" style="display:inline-block;background:#0b5cad;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(t.button)}</a></p>
<p style="font-size:14px;color:#555">${escapeHtml(t.linkHint)}<br><a href="${link}">${link}</a></p>
${note ? `<p><strong>${escapeHtml(t.noteFromInsurer)}</strong><br>${escapeHtml(note).replace(/\n/g, "<br>")}</p>\n` : ""}<p style="font-size:12px;color:#777">${escapeHtml(t.footer)}</p>
</body></html>`;
  return { subject: t.subject[content.kind], text, html };
}

/** UTF-8 → base64 in 76-character lines (RFC 2045), so any language passes every mail server. */
function base64Lines(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/.{76}(?=.)/g, "$&\r\n");
}

/**
 * The message as RFC 5322 text with a multipart/alternative body (plain text and HTML), built with
 * mimetext. The Message-ID is derived from the outbox row, so a message is recognisable in logs
 * and a repeated send of the same row carries the same id.
 */
export function buildMime(opts: { from: string; to: string; messageId: string; rendered: RenderedMail }): string {
  const msg = createMimeMessage();
  msg.setSender(opts.from);
  msg.setRecipient(opts.to);
  msg.setSubject(opts.rendered.subject);
  msg.setHeader("Message-ID", `<${opts.messageId}@${opts.from.split("@")[1]?.replace(/>$/, "") ?? "localhost"}>`);
  // Returned in a bounce's copy of the headers: the bounce finds its outbox row by it (mail/bounces.ts).
  msg.setHeader("X-Outbox-Id", opts.messageId);
  msg.addMessage({ contentType: "text/plain", data: base64Lines(opts.rendered.text), encoding: "base64" });
  msg.addMessage({ contentType: "text/html", data: base64Lines(opts.rendered.html), encoding: "base64" });
  return msg.asRaw();
}
