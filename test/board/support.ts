import { SELF } from "cloudflare:test";
import { BASE, postJson, uniqueCaseNumber } from "../helpers";
import type { loginAs } from "./login";

export type Session = Awaited<ReturnType<typeof loginAs>>;

/** GET a board page as the logged-in handler (redirects not followed). */
export function boardGet(session: Pick<Session, "cookie">, path: string, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, { headers: { cookie: session.cookie, ...headers }, redirect: "manual" });
}

/** POST a board form as the browser does (urlencoded, with the session's `_csrf` unless `csrf: false`). */
export function boardPost(
  session: Pick<Session, "cookie" | "csrfToken">,
  path: string,
  fields: Record<string, string>,
  opts: { csrf?: boolean } = {},
) {
  const body = new URLSearchParams(opts.csrf === false ? fields : { _csrf: session.csrfToken, ...fields });
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { cookie: session.cookie, "content-type": "application/x-www-form-urlencoded" },
    body: body.toString(),
    redirect: "manual",
  });
}

/** A case created through the capture API. */
export async function apiCase(apiKey: string, fields: Record<string, unknown> = {}) {
  const caseNumber = (fields.caseNumber as string | undefined) ?? uniqueCaseNumber("BRD");
  const res = await postJson("/capture/link", { caseNumber, ...fields }, { "x-api-key": apiKey });
  if (res.status !== 201) throw new Error(`case creation failed: ${res.status} ${await res.text()}`);
  const body = await res.json<{ ticketId: string; captureLink: string; sessionId: string }>();
  return { caseNumber, ...body, token: body.captureLink.split("/c/")[1] };
}

/** The status record (spec 2.4) as the API returns it, raw text and parsed. */
export async function apiStatus(apiKey: string, ticketId: string) {
  const res = await SELF.fetch(`${BASE}/capture/status?ticketId=${ticketId}`, { headers: { "x-api-key": apiKey } });
  const text = await res.text();
  return {
    text,
    body: JSON.parse(text) as {
      status: string;
      closed: boolean;
      lastResult: string;
      finalDecision: string | null;
      retriggerCount: number;
      captureLink: string;
      sessions: { sessionNumber: number; finalStatus: string }[];
      events: { action: string; actor: string }[];
    },
  };
}

/** The case's `updatedAt` as the case page puts it into its forms (the version a handler decides on). */
export async function seenVersion(session: Session, ticketId: string): Promise<string> {
  const html = await (await boardGet(session, `/board/cases/${ticketId}`)).text();
  const version = /name="version" value="(\d+)"/.exec(html)?.[1];
  if (!version) throw new Error("the case page has no action form");
  return version;
}

/** The number shown in a column's count badge. */
export function columnCount(html: string, status: string): number {
  const match = new RegExp(`data-count="${status}">(\\d+)<`).exec(html);
  if (!match) throw new Error(`no count for column ${status}`);
  return Number(match[1]);
}

/** Case numbers in page order (as the cards show them), HTML entities undone. */
export function caseNumbersIn(html: string): string[] {
  return [...html.matchAll(/class="case-number" href="[^"]+">([^<]+)</g)].map((m) =>
    m[1]
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&"),
  );
}
