import type { MailLanguage } from "../mail/texts";

/** The SMS wording (short: the link is most of the message). `{link}` is replaced. */
export const smsTexts: Record<MailLanguage, { invitation: string; reminder: string; note: string }> = {
  de: {
    invitation: "Ihre Versicherung bittet Sie, Ihren Schaden zu fotografieren: {link}",
    reminder: "Erinnerung: Bitte fotografieren Sie noch Ihren Schaden: {link}",
    note: "Hinweis: ",
  },
  en: {
    invitation: "Your insurer asks you to take photos of your damage: {link}",
    reminder: "Reminder: please take the photos of your damage: {link}",
    note: "Note: ",
  },
  pl: {
    invitation: "Ubezpieczyciel prosi o zdjęcia szkody: {link}",
    reminder: "Przypomnienie: prosimy o zdjęcia szkody: {link}",
    note: "Uwaga: ",
  },
};
