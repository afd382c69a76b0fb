/** Languages of the policyholder's mails (the capture page speaks the same three). */
export const mailLanguages = ["de", "en", "pl"] as const;
export type MailLanguage = (typeof mailLanguages)[number];

/** One language's wording of the invitation and the reminder. */
export interface MailTexts {
  subject: { invitation: string; reminder: string };
  greeting: (name: string | null) => string;
  intro: { invitation: string; reminder: string };
  button: string;
  linkHint: string;
  noteFromInsurer: string;
  footer: string;
}

export const mailTexts: Record<MailLanguage, MailTexts> = {
  de: {
    subject: { invitation: "Bitte fotografieren Sie Ihren Schaden", reminder: "Erinnerung: Fotos zu Ihrem Schaden" },
    greeting: (name) => (name ? `Guten Tag ${name},` : "Guten Tag,"),
    intro: {
      invitation:
        "Ihre Versicherung bittet Sie, den Schaden mit Ihrem Smartphone zu fotografieren. Öffnen Sie dazu den folgenden Link; die Seite führt Sie Schritt für Schritt.",
      reminder:
        "Wir haben noch keine Fotos zu Ihrem Schaden erhalten. Öffnen Sie bitte den folgenden Link, um sie jetzt aufzunehmen.",
    },
    button: "Fotos aufnehmen",
    linkHint: "Falls der Knopf nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:",
    noteFromInsurer: "Hinweis Ihrer Versicherung:",
    footer: "Diese Nachricht wurde automatisch versandt. Bitte antworten Sie nicht darauf.",
  },
  en: {
    subject: { invitation: "Please take photos of your damage", reminder: "Reminder: photos of your damage" },
    greeting: (name) => (name ? `Hello ${name},` : "Hello,"),
    intro: {
      invitation:
        "Your insurer asks you to take photos of the damage with your smartphone. Open the link below; the page guides you step by step.",
      reminder: "We have not received any photos of your damage yet. Please open the link below to take them now.",
    },
    button: "Take photos",
    linkHint: "If the button does not work, copy this link into your browser:",
    noteFromInsurer: "Note from your insurer:",
    footer: "This message was sent automatically. Please do not reply to it.",
  },
  pl: {
    subject: { invitation: "Prosimy o zdjęcia szkody", reminder: "Przypomnienie: zdjęcia szkody" },
    greeting: (name) => (name ? `Dzień dobry ${name},` : "Dzień dobry,"),
    intro: {
      invitation:
        "Twój ubezpieczyciel prosi o wykonanie zdjęć szkody smartfonem. Otwórz poniższy link; strona poprowadzi Cię krok po kroku.",
      reminder: "Nie otrzymaliśmy jeszcze zdjęć szkody. Otwórz poniższy link, aby wykonać je teraz.",
    },
    button: "Zrób zdjęcia",
    linkHint: "Jeśli przycisk nie działa, skopiuj ten link do przeglądarki:",
    noteFromInsurer: "Informacja od ubezpieczyciela:",
    footer: "Ta wiadomość została wysłana automatycznie. Prosimy na nią nie odpowiadać.",
  },
};
