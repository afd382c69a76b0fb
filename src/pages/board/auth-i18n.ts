import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { LANGUAGES, type PageLanguage, pickLanguage } from "../capture/i18n";

/** The language a handler chose with the switch, kept for the board's pages (also read by src/pages/board/index.ts). */
export const BOARD_LANGUAGE_COOKIE = "board_lang";

/**
 * The board's language: `?lang=` wins, then the browser's best supported language, else German
 * (the board's default, issue 13). The capture page's picker falls back to English, so German is
 * appended as the least wanted choice.
 */
export function boardLanguage(query: string | undefined, acceptLanguage: string | undefined): PageLanguage {
  return pickLanguage(query, `${acceptLanguage ?? ""},de;q=0.001`);
}

/** The language of a sign-in or refusal page: `?lang=`, the chosen language (cookie), the browser's, German. */
export function requestLanguage(c: Context): PageLanguage {
  return boardLanguage(c.req.query("lang") ?? getCookie(c, BOARD_LANGUAGE_COOKIE), c.req.header("accept-language"));
}

/** Set-Cookie that keeps a language chosen by `?lang=` for the board's pages; null when none was chosen. */
export function chosenLanguageCookie(c: Context): string | null {
  const chosen = c.req.query("lang");
  if (!chosen || !(LANGUAGES as readonly string[]).includes(chosen)) return null;
  return `${BOARD_LANGUAGE_COOKIE}=${chosen}; Path=/board; SameSite=Strict; Secure; Max-Age=31536000`;
}

const en = {
  loginTitle: "Sign in to the claims board",
  emailLabel: "E-mail address",
  passwordLabel: "Password",
  signIn: "Sign in",
  signOut: "Sign out",
  wrongCredentials: "E-mail or password wrong.",
  lockedOut: "Too many failed sign-ins. Please try again later.",
  tooManyFromAddress: "Too many sign-in attempts from your network. Please try again in a minute.",
  formExpired: "This form has expired. Please try again.",
  signedOut: "You have been signed out.",
  languageLabel: "Language",
  forbiddenTitle: "Action refused",
  forbiddenText:
    "This action was refused: the form has expired or did not come from this board. Please reload the page and try again.",
  signInRequiredTitle: "Please sign in",
  signInRequiredText: "Your session has ended. Please sign in again.",
  accessDeniedTitle: "No access",
  accessDeniedText: "Your Cloudflare Access sign-in does not belong to a claims handler of this service.",
  toSignIn: "Go to sign-in",
};

export type AuthMessages = typeof en;

const de: AuthMessages = {
  loginTitle: "Anmeldung zum Schaden-Board",
  emailLabel: "E-Mail-Adresse",
  passwordLabel: "Passwort",
  signIn: "Anmelden",
  signOut: "Abmelden",
  wrongCredentials: "E-Mail-Adresse oder Passwort falsch.",
  lockedOut: "Zu viele fehlgeschlagene Anmeldungen. Bitte versuchen Sie es später erneut.",
  tooManyFromAddress: "Zu viele Anmeldeversuche aus Ihrem Netzwerk. Bitte versuchen Sie es in einer Minute erneut.",
  formExpired: "Das Formular ist abgelaufen. Bitte versuchen Sie es erneut.",
  signedOut: "Sie wurden abgemeldet.",
  languageLabel: "Sprache",
  forbiddenTitle: "Aktion abgelehnt",
  forbiddenText:
    "Diese Aktion wurde abgelehnt: Das Formular ist abgelaufen oder stammt nicht von diesem Board. Bitte laden Sie die Seite neu und versuchen Sie es erneut.",
  signInRequiredTitle: "Bitte melden Sie sich an",
  signInRequiredText: "Ihre Sitzung ist beendet. Bitte melden Sie sich erneut an.",
  accessDeniedTitle: "Kein Zugang",
  accessDeniedText: "Ihre Cloudflare-Access-Anmeldung gehört zu keinem Sachbearbeiter dieses Dienstes.",
  toSignIn: "Zur Anmeldung",
};

const pl: AuthMessages = {
  loginTitle: "Logowanie do panelu szkód",
  emailLabel: "Adres e-mail",
  passwordLabel: "Hasło",
  signIn: "Zaloguj się",
  signOut: "Wyloguj się",
  wrongCredentials: "Nieprawidłowy adres e-mail lub hasło.",
  lockedOut: "Zbyt wiele nieudanych prób logowania. Spróbuj ponownie później.",
  tooManyFromAddress: "Zbyt wiele prób logowania z Twojej sieci. Spróbuj ponownie za minutę.",
  formExpired: "Formularz wygasł. Spróbuj ponownie.",
  signedOut: "Wylogowano.",
  languageLabel: "Język",
  forbiddenTitle: "Czynność odrzucona",
  forbiddenText:
    "Ta czynność została odrzucona: formularz wygasł lub nie pochodzi z tego panelu. Odśwież stronę i spróbuj ponownie.",
  signInRequiredTitle: "Zaloguj się",
  signInRequiredText: "Sesja wygasła. Zaloguj się ponownie.",
  accessDeniedTitle: "Brak dostępu",
  accessDeniedText: "Twoje logowanie przez Cloudflare Access nie należy do żadnego likwidatora szkód w tym serwisie.",
  toSignIn: "Przejdź do logowania",
};

export const AUTH_MESSAGES: Record<PageLanguage, AuthMessages> = { de, en, pl };
