import type { Env } from "../../env";
import { Parts } from "../../lib/parts";

/** One SMS ready to go: an E.164 number and the text. */
export interface OutgoingSms {
  to: string;
  body: string;
}

/** The provider refused this message for good (a 4xx such as an invalid number): the row is failed, not retried. */
export class SmsRejected extends Error {}

/**
 * Sends an SMS. Throws SmsRejected when the message can never go out; any other error (outage,
 * network) leaves the row pending and the queue tries again.
 */
export interface SmsProvider {
  send(env: Env, sms: OutgoingSms): Promise<{ providerId?: string }>;
}

const TWILIO_DEFAULT_BASE = "https://api.twilio.com";
/** 4xx answers that say nothing about the message (credentials, throttling): retried like an outage. */
const RETRYABLE_4XX = new Set([401, 403, 408, 429]);

/**
 * Twilio's Messages API (and any provider with the same shape): form-encoded POST with HTTP Basic
 * auth (account SID : auth token). SMS_FROM is a sender number, or a Messaging Service SID (`MG…`).
 */
const twilio: SmsProvider = {
  async send(env, sms) {
    const sid = env.SMS_ACCOUNT_SID!;
    const base = (env.SMS_API_BASE_URL || TWILIO_DEFAULT_BASE).replace(/\/+$/, "");
    const form = new URLSearchParams({ To: sms.to });
    const from = env.SMS_FROM!;
    form.set(/^MG[0-9a-f]{32}$/i.test(from) ? "MessagingServiceSid" : "From", from);
    form.set("Body", sms.body);
    const res = await fetch(`${base}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${sid}:${env.SMS_AUTH_TOKEN}`)}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: form.toString(),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let answer: { sid?: string; code?: number; message?: string } = {};
    try {
      answer = JSON.parse(text);
    } catch {
      // not JSON (a proxy's error page): the status decides
    }
    if (res.ok) return { providerId: answer.sid };
    const detail = `SMS provider answered ${res.status}${answer.code ? ` (code ${answer.code})` : ""}${answer.message ? `: ${answer.message}` : ""}`;
    if (res.status >= 400 && res.status < 500 && !RETRYABLE_4XX.has(res.status)) throw new SmsRejected(detail);
    throw new Error(detail);
  },
};

/**
 * The SMS providers (setting SMS_PROVIDER): `twilio` (Twilio's Messages API shape) and `none`.
 * Unset: `twilio` when SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM are set, else `none`. Tests add
 * their own under a new name.
 */
export const smsProviders = new Parts<SmsProvider | null>("SMS_PROVIDER", { none: null, twilio });

const CREDENTIALS = ["SMS_ACCOUNT_SID", "SMS_AUTH_TOKEN", "SMS_FROM"] as const;

/** Whether SMS can be offered, and why not. */
export function smsAvailability(
  env: Env,
): { provider: SmsProvider; reason?: undefined } | { provider: null; reason: string } {
  const missing = CREDENTIALS.filter((name) => !env[name]);
  const name = env.SMS_PROVIDER || (missing.length === 0 ? "twilio" : "none");
  const provider = smsProviders.pick(name);
  if (provider && name === "twilio" && missing.length > 0)
    return { provider: null, reason: `SMS_PROVIDER is twilio but ${missing.join(", ")} missing` };
  if (provider) return { provider };
  return {
    provider: null,
    reason: env.SMS_PROVIDER
      ? `SMS_PROVIDER is ${env.SMS_PROVIDER}`
      : `no SMS credentials (${missing.join(", ")} missing)`,
  };
}
