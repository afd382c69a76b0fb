import { env, SELF } from "cloudflare:test";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { BASE } from "../helpers";
import { pageFetch } from "../capture-page/support";
import { loginAs } from "./login";
import { apiCase, apiStatus, boardGet, boardPost, seenVersion } from "./support";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const RECEIVER = "https://receiver.test/hooks/board";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** An account with a push URL (set through the admin API) and a logged-in handler of it. */
async function pushingAccount() {
  const s = await loginAs();
  const res = await patchAccount(s.accountId, { push: { url: RECEIVER, secret: SECRET } });
  expect(res.status).toBe(200);
  return s;
}

function patchAccount(accountId: string, body: unknown) {
  return SELF.fetch(`${BASE}/admin/accounts/${accountId}`, {
    method: "PATCH",
    headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const close = async (s: Awaited<ReturnType<typeof loginAs>>, ticketId: string, decision: string, version?: string) =>
  boardPost(s, `/board/cases/${ticketId}/close`, { decision, version: version ?? (await seenVersion(s, ticketId)) });

describe("close with a decision: manually_closed, the handler as actor, and the result push like any close", () => {
  it("closes a manual case with betrug_bestaetigt; the API shows it and the insurer receives the signed push", async () => {
    const received: string[] = [];
    server.use(
      http.post(RECEIVER, async ({ request }) => {
        received.push(
          JSON.stringify(new Webhook(SECRET).verify(await request.text(), Object.fromEntries(request.headers))),
        );
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const s = await pushingAccount();
    const c = await apiCase(s.apiKey);
    await pageFetch(c.token, "/inspection", { method: "POST" });
    const res = await close(s, c.ticketId, "betrug_bestaetigt");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/board/cases/${c.ticketId}?done=closed`);

    const { body } = await apiStatus(s.apiKey, c.ticketId);
    expect(body).toMatchObject({ status: "closed", closed: true, finalDecision: "betrug_bestaetigt" });
    expect(body.events).toContainEqual({
      action: "manually_closed",
      actor: `handler:${s.handler.id}`,
      timestamp: expect.any(String),
    });
    // The close owes the push in the same batch, exactly as an automatic close does.
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 60_000, interval: 200 });
    expect(JSON.parse(received[0])).toMatchObject({
      type: "capture.closed",
      data: {
        ticketId: c.ticketId,
        status: "closed",
        lastResult: "inspection_requested",
        finalDecision: "betrug_bestaetigt",
      },
    });
    const page = await (await boardGet(s, `/board/cases/${c.ticketId}?done=closed`)).text();
    expect(page).toContain("Der Fall wurde abgeschlossen.");
  });

  it("refuses closed_io and unknown decisions (400) and leaves the case open", async () => {
    const s = await loginAs();
    const c = await apiCase(s.apiKey);
    for (const decision of ["closed_io", "betrug", ""]) {
      const res = await close(s, c.ticketId, decision);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('role="alert"');
    }
    expect((await apiStatus(s.apiKey, c.ticketId)).body.status).toBe("sent");
  });
});

describe("a closed case is read-only", () => {
  it("shows no forms, and refuses a close, a note and a re-trigger (409) saying why", async () => {
    const s = await loginAs();
    const c = await apiCase(s.apiKey);
    const version = await seenVersion(s, c.ticketId);
    expect((await close(s, c.ticketId, "manuell_geprueft", version)).status).toBe(303);
    const page = await (await boardGet(s, `/board/cases/${c.ticketId}`)).text();
    expect(page).toContain('id="read-only"');
    expect(page).not.toContain('<form method="post" action="/board/cases/');

    const again = await close(s, c.ticketId, "betrug_bestaetigt", version);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Der Fall wurde inzwischen abgeschlossen.");
    const note = await boardPost(s, `/board/cases/${c.ticketId}/notes`, { body: "Too late for this one" });
    expect(note.status).toBe(409);
    // The handler's text is shown back, not lost.
    expect(await note.text()).toContain("Too late for this one");
    expect((await boardPost(s, `/board/cases/${c.ticketId}/retrigger`, { version })).status).toBe(409);

    const { body } = await apiStatus(s.apiKey, c.ticketId);
    expect(body.finalDecision).toBe("manuell_geprueft");
    expect(body.events.filter((e) => e.action === "manually_closed")).toHaveLength(1);
  });
});

describe("two handlers at once: the case's CaseLock decides, the loser sees the new state", () => {
  it("closes once when two handlers close the same case concurrently", async () => {
    const a = await loginAs();
    const b = await loginAs({ accountId: a.accountId });
    const c = await apiCase(a.apiKey);
    const version = await seenVersion(a, c.ticketId);
    const [ra, rb] = await Promise.all([
      close(a, c.ticketId, "betrug_bestaetigt", version),
      close(b, c.ticketId, "sonstiges", version),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([303, 409]);
    const loser = ra.status === 409 ? ra : rb;
    const winner = ra.status === 303 ? "betrug_bestaetigt" : "sonstiges";
    const loserPage = await loser.text();
    expect(loserPage).toContain("Der Fall wurde inzwischen abgeschlossen.");
    expect(loserPage).toContain('data-status="closed"');
    const { body } = await apiStatus(a.apiKey, c.ticketId);
    expect(body.finalDecision).toBe(winner);
    expect(body.events.filter((e) => e.action === "manually_closed")).toHaveLength(1);
  });

  it("refuses a close decided on a state that changed meanwhile (a colleague issued a new link)", async () => {
    const a = await loginAs();
    const b = await loginAs({ accountId: a.accountId });
    const c = await apiCase(a.apiKey);
    const seenByA = await seenVersion(a, c.ticketId);
    // Timestamps are milliseconds: make sure B's change lands in a later one.
    await new Promise((r) => setTimeout(r, 5));
    expect((await boardPost(b, `/board/cases/${c.ticketId}/retrigger`, { version: seenByA })).status).toBe(303);
    const res = await close(a, c.ticketId, "betrug_bestaetigt", seenByA);
    expect(res.status).toBe(409);
    const page = await res.text();
    expect(page).toContain("Der Fall wurde inzwischen geändert");
    // The page shows the new state, whose version A can now act on.
    expect(page).toContain("Sitzung 2");
    expect((await apiStatus(a.apiKey, c.ticketId)).body.status).toBe("sent");
    expect((await close(a, c.ticketId, "betrug_bestaetigt")).status).toBe(303);
  });

  it("keeps both notes when two handlers write at the same time", async () => {
    const a = await loginAs();
    const b = await loginAs({ accountId: a.accountId });
    const c = await apiCase(a.apiKey);
    const [ra, rb] = await Promise.all([
      boardPost(a, `/board/cases/${c.ticketId}/notes`, { body: "Note from A" }),
      boardPost(b, `/board/cases/${c.ticketId}/notes`, { body: "Note from B" }),
    ]);
    expect([ra.status, rb.status]).toEqual([303, 303]);
    const page = await (await boardGet(a, `/board/cases/${c.ticketId}`)).text();
    expect(page).toContain("Note from A");
    expect(page).toContain("Note from B");
  });
});

describe("internal notes: on the board only, never in an API response", () => {
  it("shows the note on the case page and nowhere in GET /capture/status", async () => {
    const s = await loginAs();
    const c = await apiCase(s.apiKey);
    const text = `Called the policyholder <b>${crypto.randomUUID()}</b>`;
    const res = await boardPost(s, `/board/cases/${c.ticketId}/notes`, { body: text });
    expect(res.status).toBe(303);
    const page = await (await boardGet(s, `/board/cases/${c.ticketId}?done=note`)).text();
    // Escaped, never markup.
    expect(page).toContain(text.replace("<b>", "&lt;b&gt;").replace("</b>", "&lt;/b&gt;"));
    expect(page).toContain("Die Notiz wurde gespeichert.");

    const status = await apiStatus(s.apiKey, c.ticketId);
    const secret = text.slice(text.indexOf("<b>") + 3, text.indexOf("</b>"));
    expect(status.text).not.toContain(secret);
    expect(status.text).not.toContain("Called the policyholder");
    // Not even that a note was written: the event stays on the board's history.
    expect(status.body.events.map((e: { action: string }) => e.action)).not.toContain("internal_note_added");
    expect(status.body.events.map((e: { action: string }) => e.action)).toContain("capture_triggered");
    expect(page).toContain("Interne Notiz");
    const byNumber = await (
      await SELF.fetch(`${BASE}/capture/status?caseNumber=${encodeURIComponent(c.caseNumber)}`, {
        headers: { "x-api-key": s.apiKey },
      })
    ).text();
    expect(byNumber).not.toContain(secret);
  });

  it("refuses an empty note (400) and keeps nothing", async () => {
    const s = await loginAs();
    const c = await apiCase(s.apiKey);
    expect((await boardPost(s, `/board/cases/${c.ticketId}/notes`, { body: "   " })).status).toBe(400);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM case_notes WHERE case_id = ?")
      .bind(c.ticketId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});

describe("re-trigger: a new link; the old one stops working", () => {
  it("issues session 2 with a new link, the old link answers 410, the event names the handler", async () => {
    const s = await loginAs();
    const c = await apiCase(s.apiKey);
    await pageFetch(c.token, "/withdraw", { method: "POST" });
    const res = await boardPost(s, `/board/cases/${c.ticketId}/retrigger`, {
      version: await seenVersion(s, c.ticketId),
    });
    expect(res.status).toBe(303);
    const { body } = await apiStatus(s.apiKey, c.ticketId);
    expect(body).toMatchObject({ status: "sent", lastResult: "pending", retriggerCount: 1 });
    expect(body.sessions.map((x) => x.finalStatus)).toEqual(["superseded", "open"]);
    expect(body.captureLink).not.toBe(c.captureLink);
    expect(body.events).toContainEqual({
      action: "capture_retriggered",
      actor: `handler:${s.handler.id}`,
      timestamp: expect.any(String),
    });
    expect((await pageFetch(c.token, "")).status).toBe(410);
    const page = await (await boardGet(s, `/board/cases/${c.ticketId}?done=retrigger`)).text();
    expect(page).toContain(body.captureLink);
  });

  it("in provider_versand writes the invitation again", async () => {
    const s = await loginAs();
    expect((await patchAccount(s.accountId, { communicationMode: "provider_versand" })).status).toBe(200);
    const c = await apiCase(s.apiKey, { vnName: "Erika Muster", vnEmail: "policyholder@example.test" });
    const invitations = () =>
      env.DB.prepare("SELECT count(*) AS n FROM outbox WHERE case_id = ? AND kind = 'invitation'")
        .bind(c.ticketId)
        .first<{ n: number }>();
    expect((await invitations())?.n).toBe(1);
    const res = await boardPost(s, `/board/cases/${c.ticketId}/retrigger`, {
      version: await seenVersion(s, c.ticketId),
    });
    expect(res.status).toBe(303);
    expect((await invitations())?.n).toBe(2);
  });
});

describe("CSRF: every form post needs the session's token", () => {
  it("refuses a close without or with a wrong token (403) and changes nothing", async () => {
    const s = await loginAs();
    const c = await apiCase(s.apiKey);
    const version = await seenVersion(s, c.ticketId);
    const without = await boardPost(
      s,
      `/board/cases/${c.ticketId}/close`,
      { decision: "betrug_bestaetigt", version },
      { csrf: false },
    );
    expect(without.status).toBe(403);
    const wrong = await boardPost(
      s,
      `/board/cases/${c.ticketId}/close`,
      { _csrf: "x".repeat(43), decision: "betrug_bestaetigt", version },
      { csrf: false },
    );
    expect(wrong.status).toBe(403);
    const note = await boardPost(s, `/board/cases/${c.ticketId}/notes`, { body: "forged" }, { csrf: false });
    expect(note.status).toBe(403);
    expect((await apiStatus(s.apiKey, c.ticketId)).body.status).toBe("sent");
  });

  it("refuses another handler's token", async () => {
    const a = await loginAs();
    const b = await loginAs({ accountId: a.accountId });
    const c = await apiCase(a.apiKey);
    const res = await boardPost(
      a,
      `/board/cases/${c.ticketId}/close`,
      { _csrf: b.csrfToken, decision: "sonstiges", version: await seenVersion(a, c.ticketId) },
      { csrf: false },
    );
    expect(res.status).toBe(403);
  });
});

describe("tenancy: another account's case is 404 for every action", () => {
  it("answers 404 to a close, note or re-trigger on a case of another account, and changes nothing", async () => {
    const mine = await loginAs();
    const other = await loginAs();
    const theirs = await apiCase(other.apiKey);
    const version = await seenVersion(other, theirs.ticketId);
    expect((await close(mine, theirs.ticketId, "betrug_bestaetigt", version)).status).toBe(404);
    expect((await boardPost(mine, `/board/cases/${theirs.ticketId}/notes`, { body: "x" })).status).toBe(404);
    expect((await boardPost(mine, `/board/cases/${theirs.ticketId}/retrigger`, { version })).status).toBe(404);
    expect((await apiStatus(other.apiKey, theirs.ticketId)).body.events.map((e) => e.action)).toEqual([
      "capture_triggered",
    ]);
  });
});
