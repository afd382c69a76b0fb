import { EmailMessage } from "cloudflare:email";
import type { Env } from "../../env";
import { Parts } from "../../lib/parts";

/** One e-mail ready to go: envelope and the RFC 5322 text. */
export interface OutgoingMail {
  from: string;
  to: string;
  raw: string;
}

/** Sends an e-mail, or throws (the outbox row stays pending and is tried again). */
export interface MailProvider {
  send(env: Env, mail: OutgoingMail): Promise<void>;
}

/**
 * The mail providers (setting MAIL_PROVIDER): `send-email` (the Workers `send_email` binding
 * MAILER) and `none` (nothing is sent; rows stay pending). Unset: `send-email` when both MAILER
 * and MAIL_FROM are there, else `none`. Tests add their own under a new name.
 */
export const mailProviders = new Parts<MailProvider | null>("MAIL_PROVIDER", {
  none: null,
  "send-email": {
    async send(env, mail) {
      if (!env.MAILER) throw new Error("MAIL_PROVIDER is send-email but the send_email binding MAILER is missing");
      await env.MAILER.send(new EmailMessage(mail.from, mail.to, mail.raw));
    },
  },
});

/** The provider this deployment uses, or null when e-mail is not set up. */
export function mailProvider(env: Env): MailProvider | null {
  return mailProviders.pick(env.MAIL_PROVIDER ?? (env.MAILER && env.MAIL_FROM ? "send-email" : "none"));
}
