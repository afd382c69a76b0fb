import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getDb } from "../../src/db/client";
import { captureCases } from "../../src/db/schema";
import { OVERVIEW_SIZE, PAGE_SIZE } from "../../src/board/cases-list";
import { BASE, createAccount, uniqueCaseNumber } from "../helpers";
import { pageFetch } from "../capture-page/support";
import { loginAs } from "./login";
import { apiCase, boardGet, boardPost, caseNumbersIn, columnCount, seenVersion } from "./support";

/** Cases written straight into D1 (for counts and pages beyond what a test should create through the API). */
async function insertCases(
  accountId: string,
  n: number,
  fields: Partial<typeof captureCases.$inferInsert> & { prefix: string; createdAt?: Date },
) {
  const { prefix, createdAt, ...rest } = fields;
  const base = (createdAt ?? new Date()).getTime();
  const rows = Array.from({ length: n }, (_, i) => ({
    id: crypto.randomUUID(),
    accountId,
    caseNumber: `${prefix}/${String(i).padStart(4, "0")}`,
    status: "sent" as const,
    lastResult: "pending" as const,
    // One second apart: the newest is the last one.
    createdAt: new Date(base + i * 1000),
    updatedAt: new Date(base + i * 1000),
    ...rest,
  }));
  const db = getDb(env.DB);
  // D1 takes at most 100 bound values per statement: 5 rows each, all in one batch.
  const inserts = [];
  for (let i = 0; i < rows.length; i += 5) inserts.push(db.insert(captureCases).values(rows.slice(i, i + 5)));
  await db.batch(inserts as [(typeof inserts)[0], ...typeof inserts]);
  return rows;
}

describe("the board lists the account's cases in four columns with counts (issue 13)", () => {
  it("puts each case in its column: sent, manual after an inspection request, closed after a handler's close", async () => {
    const s = await loginAs();
    const sent = await apiCase(s.apiKey);
    const manual = await apiCase(s.apiKey);
    const closed = await apiCase(s.apiKey);
    expect((await pageFetch(manual.token, "/inspection", { method: "POST" })).status).toBe(200);
    const version = await seenVersion(s, closed.ticketId);
    await boardPost(s, `/board/cases/${closed.ticketId}/close`, { decision: "sonstiges", version });

    const res = await boardGet(s, "/board");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await res.text();
    expect([
      columnCount(html, "sent"),
      columnCount(html, "reminder"),
      columnCount(html, "manual"),
      columnCount(html, "closed"),
    ]).toEqual([1, 0, 1, 1]);
    const column = (status: string) => html.slice(html.indexOf(`class="column col-${status}"`)).split("</section>")[0];
    expect(caseNumbersIn(column("sent"))).toEqual([sent.caseNumber]);
    expect(caseNumbersIn(column("manual"))).toEqual([manual.caseNumber]);
    expect(caseNumbersIn(column("closed"))).toEqual([closed.caseNumber]);
    // A manual case says why it is there.
    expect(column("manual")).toContain("Versicherungsnehmer wünscht Besichtigung");
    expect(html).not.toMatch(/<script>|style="/);
  });

  it("in eigenversand a reminder card tells the handler to remind the policyholder (the service sends nothing)", async () => {
    const own = await loginAs(); // accounts are created in eigenversand
    await insertCases(own.accountId, 1, { prefix: uniqueCaseNumber("OWN"), status: "reminder", reminderCount: 1 });
    expect(await (await boardGet(own, "/board")).text()).toContain("Erinnerung fällig: bitte selbst erinnern");

    const { accountId } = await createAccount({ communicationMode: "provider_versand" });
    const provider = await loginAs({ accountId });
    await insertCases(accountId, 1, { prefix: uniqueCaseNumber("PRV"), status: "reminder", reminderCount: 1 });
    const html = await (await boardGet(provider, "/board")).text();
    expect(columnCount(html, "reminder")).toBe(1);
    expect(html).not.toContain("bitte selbst erinnern");
  });

  it("says why from the event that moved the case to manual, and marks a bounced invitation", async () => {
    const s = await loginAs();
    // Failed attempts with tries left, then the reminders ran out: lastResult stays nicht_io, the event says why.
    const [row] = await insertCases(s.accountId, 1, {
      prefix: uniqueCaseNumber("ESC"),
      status: "manual",
      lastResult: "nicht_io",
    });
    const event = (seq: number, action: string) =>
      env.DB.prepare(
        "INSERT INTO capture_events (id, case_id, seq, timestamp, action, actor) VALUES (?, ?, ?, ?, ?, ?)",
      )
        .bind(crypto.randomUUID(), row.id, seq, Date.now(), action, "system")
        .run();
    await event(1, "capture_triggered");
    await event(2, "invitation_bounced");
    await event(3, "capture_result_nicht_io");
    await event(4, "escalated_to_manual");
    const html = await (await boardGet(s, "/board?col=manual")).text();
    const card = html.slice(html.indexOf(`data-case="${row.id}"`)).split("</li>")[0];
    expect(card).toContain("Keine Fotos trotz aller Erinnerungen");
    expect(card).toContain("Einladung unzustellbar");
  });

  it("shows the newest case first and only OVERVIEW_SIZE per column, with a link to the whole column", async () => {
    const s = await loginAs();
    const rows = await insertCases(s.accountId, OVERVIEW_SIZE + 3, { prefix: uniqueCaseNumber("NEW") });
    const html = await (await boardGet(s, "/board")).text();
    expect(columnCount(html, "sent")).toBe(OVERVIEW_SIZE + 3);
    const newestFirst = rows.map((r) => r.caseNumber).reverse();
    expect(caseNumbersIn(html)).toEqual(newestFirst.slice(0, OVERVIEW_SIZE));
    expect(html).toContain(`href="/board?col=sent"`);
    // Pages belong to a column opened alone: the overview shows the newest whatever `page` says.
    expect(caseNumbersIn(await (await boardGet(s, "/board?page=3")).text())).toEqual(
      newestFirst.slice(0, OVERVIEW_SIZE),
    );
  });

  it("pages through one column, newest first, without repeating or skipping a case", async () => {
    const s = await loginAs();
    const rows = await insertCases(s.accountId, PAGE_SIZE + 5, { prefix: uniqueCaseNumber("PG"), status: "manual" });
    const page1 = await (await boardGet(s, "/board?col=manual")).text();
    const page2 = await (await boardGet(s, "/board?col=manual&page=2")).text();
    const newestFirst = rows.map((r) => r.caseNumber).reverse();
    expect(caseNumbersIn(page1)).toEqual(newestFirst.slice(0, PAGE_SIZE));
    expect(caseNumbersIn(page2)).toEqual(newestFirst.slice(PAGE_SIZE));
    expect(page1).toContain('rel="next"');
    expect(page2).toContain('rel="prev"');
    // A page beyond the last shows the last one.
    expect(caseNumbersIn(await (await boardGet(s, "/board?col=manual&page=99")).text())).toEqual(
      newestFirst.slice(PAGE_SIZE),
    );
  });
});

describe("search by case number (slashes allowed), filter by lastResult and creation date", () => {
  it("finds a part of the number anywhere in it, ignoring case, and counts only the matches", async () => {
    const s = await loginAs();
    const tag = uniqueCaseNumber("Kfz").replace(/-/g, "");
    const a = await apiCase(s.apiKey, { caseNumber: `${tag}/2026/04/17` });
    const b = await apiCase(s.apiKey, { caseNumber: `${tag}/2026/05/01` });
    await apiCase(s.apiKey, { caseNumber: uniqueCaseNumber("OTHER") });
    const search = async (q: string) =>
      caseNumbersIn(await (await boardGet(s, `/board?q=${encodeURIComponent(q)}`)).text()).sort();
    expect(await search(`${tag}/2026/04`)).toEqual([a.caseNumber]);
    expect(await search("2026/05/01")).toEqual([b.caseNumber]);
    expect(await search(tag.toUpperCase())).toEqual([a.caseNumber, b.caseNumber].sort());
    expect(await search("no-such-number")).toEqual([]);
    const html = await (await boardGet(s, `/board?q=${encodeURIComponent(tag)}`)).text();
    expect(columnCount(html, "sent")).toBe(2);
    // The search box keeps what was typed.
    expect(html).toContain(`value="${tag}"`);
  });

  it("filters by lastResult", async () => {
    const s = await loginAs();
    const withdrawn = await apiCase(s.apiKey);
    const pending = await apiCase(s.apiKey);
    await pageFetch(withdrawn.token, "/withdraw", { method: "POST" });
    const html = await (await boardGet(s, "/board?result=claim_withdrawn")).text();
    expect(caseNumbersIn(html)).toEqual([withdrawn.caseNumber]);
    expect(caseNumbersIn(await (await boardGet(s, "/board?result=pending")).text())).toEqual([pending.caseNumber]);
  });

  it("filters by creation date, both ends inclusive", async () => {
    const s = await loginAs();
    await insertCases(s.accountId, 1, { prefix: "OLD", createdAt: new Date("2025-03-10T23:59:00Z") });
    await insertCases(s.accountId, 1, { prefix: "MID", createdAt: new Date("2025-03-11T00:00:00Z") });
    await insertCases(s.accountId, 1, { prefix: "END", createdAt: new Date("2025-03-12T23:59:58Z") });
    await insertCases(s.accountId, 1, { prefix: "NEW", createdAt: new Date("2025-03-13T00:00:00Z") });
    const html = await (await boardGet(s, "/board?from=2025-03-11&to=2025-03-12")).text();
    expect(caseNumbersIn(html)).toEqual(["END/0000", "MID/0000"]);
    expect(caseNumbersIn(await (await boardGet(s, "/board?to=2025-03-10")).text())).toEqual(["OLD/0000"]);
  });

  it("answers a bad filter value with a readable message (400), not an error page, and applies the rest", async () => {
    const s = await loginAs();
    const c = await apiCase(s.apiKey);
    const res = await boardGet(s, "/board?result=maybe&from=2025-02-30&page=-1");
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain("result, from, page");
    expect(caseNumbersIn(html)).toEqual([c.caseNumber]);
  });
});

describe("tenancy: a handler sees only the cases of their own account", () => {
  it("lists no case of another account, not even by search", async () => {
    const mine = await loginAs();
    const other = await loginAs();
    const theirs = await apiCase(other.apiKey);
    const html = await (await boardGet(mine, `/board?q=${encodeURIComponent(theirs.caseNumber)}`)).text();
    expect(caseNumbersIn(html)).toEqual([]);
    expect(columnCount(html, "sent")).toBe(0);
    expect(html).not.toContain(theirs.ticketId);
  });

  it("sends a visitor without a session to the login page", async () => {
    const res = await boardGet({ cookie: "" }, "/board");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^\/board\/login/);
    const live = await boardGet({ cookie: "" }, "/board/live");
    expect(live.status).toBe(303);
  });
});

describe("live update: a case created through the API reaches an open board without reload", () => {
  it("answers 304 while nothing changed and the new columns once a case was created", async () => {
    const s = await loginAs();
    const first = await apiCase(s.apiKey);
    const page = await (await boardGet(s, "/board")).text();
    const etag = /data-etag="([^"]+)"/.exec(page)![1].replace(/&quot;/g, '"');
    const live = /data-live="([^"]+)"/.exec(page)![1].replace(/&amp;/g, "&");
    expect(live).toBe("/board/live");

    const unchanged = await boardGet(s, live, { "if-none-match": etag });
    expect(unchanged.status).toBe(304);

    const second = await apiCase(s.apiKey);
    const changed = await boardGet(s, live, { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    const fragment = await changed.text();
    expect(caseNumbersIn(fragment)).toEqual([second.caseNumber, first.caseNumber]);
    expect(fragment).not.toContain("<html");
    expect((await boardGet(s, live, { "if-none-match": changed.headers.get("etag")! })).status).toBe(304);
  });

  it("keeps the filter: the fragment of a search shows only its matches", async () => {
    const s = await loginAs();
    const tag = uniqueCaseNumber("LIVE");
    await apiCase(s.apiKey, { caseNumber: `${tag}/1` });
    await apiCase(s.apiKey);
    const page = await (await boardGet(s, `/board?q=${encodeURIComponent(tag)}`)).text();
    const live = /data-live="([^"]+)"/.exec(page)![1].replace(/&amp;/g, "&");
    expect(live).toBe(`/board/live?q=${encodeURIComponent(tag)}`);
    expect(caseNumbersIn(await (await boardGet(s, live)).text())).toEqual([`${tag}/1`]);
  });

  it("refuses a bad filter on the live endpoint with a problem (400)", async () => {
    const s = await loginAs();
    const res = await boardGet(s, "/board/live?col=archive");
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
  });
});

describe("assets", () => {
  it("serves the stylesheet and script without a session, as files (the CSP allows nothing inline)", async () => {
    const css = await SELF.fetch(`${BASE}/board/assets/board.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toContain("text/css");
    const js = await SELF.fetch(`${BASE}/board/assets/board.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("text/javascript");
    expect(await js.text()).toContain("board-columns");
  });
});
