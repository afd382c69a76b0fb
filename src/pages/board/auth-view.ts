import type { PageLanguage } from "../capture/i18n";
import { LANGUAGES } from "../capture/i18n";
import { html, PAGE_HEADERS, raw, type RawHtml } from "../html";
import { AUTH_MESSAGES, type AuthMessages } from "./auth-i18n";

/** Cache-busting version of login.css. */
const LOGIN_CSS_VERSION = "1";

function authDocument(lang: PageLanguage, title: string, body: RawHtml, langHref: (l: PageLanguage) => string) {
  const m = AUTH_MESSAGES[lang];
  return html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title>
<link rel="stylesheet" href="/board/assets/login.css?v=${LOGIN_CSS_VERSION}"></head>
<body><header class="top"><nav aria-label="${m.languageLabel}" class="langs">${LANGUAGES.map((l) => html`<a href="${langHref(l)}" hreflang="${l}" lang="${l}"${l === lang ? raw(' aria-current="true"') : ""}>${l.toUpperCase()}</a>`)}</nav></header>
${body}</body></html>`;
}

export interface LoginForm {
  lang: PageLanguage;
  /** The pre-session CSRF token (double-submit: the same value is in the login cookie). */
  csrfToken: string;
  /** Where to go after login (already checked by `safeNext`), or null. */
  next: string | null;
  email?: string;
  /** A message above the form: an error (`alert`) or information (`notice`). */
  message?: { kind: "alert" | "notice"; key: keyof AuthMessages };
}

/** The login page; works without JavaScript. */
export function loginPage(form: LoginForm, status: number, headers: Record<string, string> = {}): Response {
  const m = AUTH_MESSAGES[form.lang];
  const query = (lang: PageLanguage) => {
    const params = new URLSearchParams({ lang });
    if (form.next) params.set("next", form.next);
    return `/board/login?${params}`;
  };
  const message = form.message
    ? html`<p id="login-message" class="${form.message.kind}" role="${form.message.kind === "alert" ? "alert" : "status"}">${m[form.message.key]}</p>`
    : "";
  const body = html`<main id="main">
<h1>${m.loginTitle}</h1>
${message}
<form method="post" action="${query(form.lang)}">
<input type="hidden" name="_csrf" value="${form.csrfToken}">
<label for="email">${m.emailLabel}</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${form.email ?? ""}"${form.message?.kind === "alert" ? raw(' aria-describedby="login-message"') : ""}>
<label for="password">${m.passwordLabel}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
<button type="submit">${m.signIn}</button>
</form>
</main>`;
  const doc = authDocument(form.lang, m.loginTitle, body, query);
  return new Response(doc.value, { status, headers: { ...PAGE_HEADERS, ...headers } });
}

/** A page that explains a refusal (CSRF, no session, Access without handler) with a way back to sign-in. */
export function authMessagePage(
  lang: PageLanguage,
  status: number,
  title: keyof AuthMessages,
  text: keyof AuthMessages,
  signInHref: string,
): Response {
  const m = AUTH_MESSAGES[lang];
  const body = html`<main id="main" data-state="${title}"><h1>${m[title]}</h1><p>${m[text]}</p><a href="${signInHref}">${m.toSignIn}</a></main>`;
  const doc = authDocument(lang, m[title], body, (l) => `/board/login?lang=${l}`);
  return new Response(doc.value, { status, headers: PAGE_HEADERS });
}

/** The sign-out button for the board's header: a POST form carrying the session's CSRF token. */
export function logoutForm(lang: PageLanguage, csrfToken: string): RawHtml {
  return html`<form method="post" action="/board/logout" class="logout"><input type="hidden" name="_csrf" value="${csrfToken}"><button type="submit">${AUTH_MESSAGES[lang].signOut}</button></form>`;
}
