import { mailLanguage } from "../mail/message";
import { fitSms, smsLength, type SmsLength } from "./segments";
import { smsTexts } from "./texts";

/** The SMS of an outbox row's payload, in the account's language, with its length. */
export function renderSms(
  kind: "invitation" | "reminder",
  payload: Record<string, unknown>,
): { body: string } & SmsLength {
  const t = smsTexts[mailLanguage(payload.language)];
  const base = t[kind].replace("{link}", String(payload.link ?? ""));
  const note =
    typeof payload.customNote === "string" && payload.customNote.trim()
      ? `${t.note}${payload.customNote.trim().replace(/\s+/g, " ")}`
      : null;
  const body = fitSms(base, note);
  return { body, ...smsLength(body) };
}
