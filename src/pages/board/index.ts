import { Hono, type Context } from "hono";
import { z } from "zod";
import { HANDLER_DECISIONS, NOTE_MAX_LENGTH, runBoardAction, type BoardAction } from "../../board/actions";
import { findPhotoKey, loadCaseDetail } from "../../board/case-detail";
import { boardVersion, listBoard, type BoardFilter } from "../../board/cases-list";
import { photoImage } from "../../board/photo-image";
import { getDb } from "../../db/client";
import { captureResults, caseStatuses } from "../../db/schema";
import { ApiError, notFound } from "../../lib/problem";
import { html, PAGE_HEADERS } from "../html";
import { BOARD_CSS } from "./assets/board-css";
import BOARD_JS from "./assets/board.bundle.js";
import { chosenLanguageCookie, requestLanguage } from "./auth-i18n";
import { boardBody, columnsHtml, etagOf, type BoardParams } from "./board-view";
import { caseBody, type ActionNotice } from "./case-view";
import type { BoardEnv } from "./handler-context";
import { BOARD_MESSAGES } from "./i18n";
import { boardDocument } from "./layout";
import { requireCsrf, requireHandler } from "./require-handler";

/** The claims-handler board (DESIGN §17, docs/board.md): list, live updates, case detail, actions. */
export const boardRoutes = new Hono<BoardEnv>();

const ASSET_HEADERS = { "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" };

boardRoutes.get(
  "/assets/board.css",
  () => new Response(BOARD_CSS, { headers: { ...ASSET_HEADERS, "content-type": "text/css; charset=utf-8" } }),
);
boardRoutes.get(
  "/assets/board.js",
  () => new Response(BOARD_JS, { headers: { ...ASSET_HEADERS, "content-type": "text/javascript; charset=utf-8" } }),
);

boardRoutes.use("*", requireHandler, requireCsrf);

// ---- the list ---------------------------------------------------------------------------------

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const BoardQuerySchema = z.object({
  q: z.string().trim().max(50).optional(),
  result: z.enum(captureResults).optional(),
  from: z.string().regex(DATE).refine(isDate).optional(),
  to: z.string().regex(DATE).refine(isDate).optional(),
  col: z.enum(caseStatuses).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});

boardRoutes.get("/", async (c) => {
  const lang = languageOf(c);
  const { params, filter, invalid } = boardQuery(c);
  const db = getDb(c.env.DB);
  const accountId = c.var.handler.accountId;
  const list = await listBoard(db, accountId, { ...filter, column: params.col, page: params.page ?? 1 });
  const frame = { lang, handler: c.var.handler, title: BOARD_MESSAGES[lang].title, here: hereOf(c) };
  return withLanguage(c, boardDocument(frame, boardBody(lang, params, list, invalid), invalid.length ? 400 : 200));
});

/**
 * The live update: the columns as an HTML fragment, or 304 when nothing of the account changed
 * since the ETag the board holds (one scan of an index, no table rows). board.js asks every few seconds.
 */
boardRoutes.get("/live", async (c) => {
  const lang = languageOf(c);
  const { params, filter, invalid } = boardQuery(c);
  if (invalid.length > 0) throw new ApiError(400, "validation-error", `Invalid filter: ${invalid.join(", ")}.`);
  const db = getDb(c.env.DB);
  const accountId = c.var.handler.accountId;
  const cache = { "cache-control": "no-cache, private", vary: "cookie" };
  const etag = etagOf(await boardVersion(db, accountId), lang);
  if (c.req.header("if-none-match") === etag) return new Response(null, { status: 304, headers: { ...cache, etag } });
  const list = await listBoard(db, accountId, { ...filter, column: params.col, page: params.page ?? 1 });
  // The ETag of what was read (the version may have moved on since the probe above).
  return new Response(columnsHtml(lang, params, list).value, {
    headers: {
      ...PAGE_HEADERS,
      ...cache,
      etag: etagOf(list.version, lang),
      "content-type": "text/html; charset=utf-8",
    },
  });
});

// ---- one case ---------------------------------------------------------------------------------

const DONE = { closed: "closed", note: "note", retrigger: "retrigger" } as const;

boardRoutes.get("/cases/:id", async (c) => {
  const done = c.req.query("done");
  const notice: ActionNotice | null =
    done && done in DONE ? { kind: "done", action: DONE[done as keyof typeof DONE] } : null;
  return casePage(c, notice, 200);
});

boardRoutes.get("/cases/:id/photos/:photoId", async (c) => {
  const { id, photoId } = c.req.param();
  const key = await findPhotoKey(getDb(c.env.DB), c.var.handler.accountId, id, photoId);
  const image = key ? await photoImage(c.env, key, c.req.query("size") === "thumb" ? "thumb" : "full") : null;
  if (!image) throw notFound("Photo");
  return new Response(image.body, {
    headers: {
      "content-type": image.contentType,
      "content-length": String(image.size),
      // A photo never changes under its id; only this handler's browser may keep it.
      "cache-control": "private, max-age=3600",
      "content-security-policy": "default-src 'none'; sandbox",
      "content-disposition": "inline",
    },
  });
});

const CloseForm = z.object({ decision: z.enum(HANDLER_DECISIONS), version: z.coerce.number().int().nonnegative() });
const RetriggerForm = z.object({ version: z.coerce.number().int().nonnegative() });
const NoteForm = z.object({ body: z.string().trim().min(1).max(NOTE_MAX_LENGTH) });

boardRoutes.post("/cases/:id/close", async (c) => {
  const form = CloseForm.safeParse(await c.req.parseBody());
  if (!form.success) return casePage(c, { kind: "invalid", detail: fieldsOf(form.error) }, 400);
  return act(c, { kind: "close", decision: form.data.decision, seenVersion: form.data.version }, "closed");
});

boardRoutes.post("/cases/:id/retrigger", async (c) => {
  const form = RetriggerForm.safeParse(await c.req.parseBody());
  if (!form.success) return casePage(c, { kind: "invalid", detail: fieldsOf(form.error) }, 400);
  return act(c, { kind: "retrigger", seenVersion: form.data.version }, "retrigger");
});

boardRoutes.post("/cases/:id/notes", async (c) => {
  const body = await c.req.parseBody();
  const form = NoteForm.safeParse(body);
  const typed = typeof body.body === "string" ? body.body.slice(0, NOTE_MAX_LENGTH) : undefined;
  if (!form.success) return casePage(c, { kind: "invalid", detail: fieldsOf(form.error), keptNote: typed }, 400);
  return act(c, { kind: "note", body: form.data.body }, "note", form.data.body);
});

/**
 * Runs the action; on success back to the case (303, so a reload does not post again). When the
 * case changed or closed meanwhile, the case page in its new state says so, with the note's text
 * if one could not be saved: nothing the handler typed is lost.
 */
async function act(c: Context<BoardEnv>, action: BoardAction, done: keyof typeof DONE, keptNote?: string) {
  const id = c.req.param("id")!;
  try {
    await runBoardAction(c.env, c.var.handler, id, action);
  } catch (err) {
    if (
      err instanceof ApiError &&
      (err.code === "case-changed" || err.code === "case-closed" || err.code === "transition-not-allowed")
    )
      return casePage(c, { kind: "conflict", closed: err.code !== "case-changed", keptNote }, 409);
    if (err instanceof ApiError && err.httpStatus === 404) return casePage(c, null, 404);
    throw err;
  }
  return c.redirect(`/board/cases/${encodeURIComponent(id)}?done=${done}`, 303);
}

async function casePage(c: Context<BoardEnv>, notice: ActionNotice | null, status: number): Promise<Response> {
  const lang = languageOf(c);
  const m = BOARD_MESSAGES[lang];
  const handler = c.var.handler;
  const db = getDb(c.env.DB);
  const id = c.req.param("id")!;
  const detail = await loadCaseDetail(db, c.env.PUBLIC_BASE_URL, handler.accountId, id);
  // The case's own address, also after a POST: the language switch must lead to a page, not a form target.
  const frame = { lang, handler, title: m.notFoundTitle, here: `/board/cases/${encodeURIComponent(id)}` };
  if (!detail) {
    const body = html`<main id="main" class="message"><h1>${m.notFoundTitle}</h1><p>${m.notFoundText}</p><p><a href="/board">${m.back}</a></p></main>`;
    return withLanguage(c, boardDocument(frame, body, 404));
  }
  const body = caseBody(lang, handler, detail, notice);
  return withLanguage(c, boardDocument({ ...frame, title: detail.row.caseNumber }, body, status));
}

// ---- helpers ----------------------------------------------------------------------------------

function boardQuery(c: Context<BoardEnv>): { params: BoardParams; filter: BoardFilter; invalid: string[] } {
  const raw = c.req.query();
  const params: BoardParams = {};
  const invalid: string[] = [];
  // Each field on its own: one bad value is reported and dropped, the rest still applies.
  for (const [name, schema] of Object.entries(BoardQuerySchema.shape)) {
    const value = raw[name];
    if (value === undefined || value === "") continue;
    const parsed = schema.safeParse(value);
    if (parsed.success) Object.assign(params, { [name]: parsed.data });
    else invalid.push(name);
  }
  const filter: BoardFilter = {
    search: params.q || undefined,
    lastResult: params.result as BoardFilter["lastResult"],
    createdFrom: params.from ? new Date(`${params.from}T00:00:00Z`) : undefined,
    // "to" is a whole day: everything before the next midnight.
    createdBefore: params.to ? new Date(Date.parse(`${params.to}T00:00:00Z`) + 86_400_000) : undefined,
  };
  return { params, filter, invalid };
}

function isDate(value: string): boolean {
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value);
}

function fieldsOf(error: z.ZodError): string {
  return error.issues.map((i) => i.path.join(".") || "body").join(", ");
}

/** The language (`?lang=`, the handler's earlier choice, the browser's, German) and its cookie, shared with the login pages. */
const languageOf = (c: Context<BoardEnv>) => requestLanguage(c);

function withLanguage(c: Context<BoardEnv>, res: Response): Response {
  const cookie = chosenLanguageCookie(c);
  if (cookie) res.headers.append("set-cookie", cookie);
  return res;
}

/** The request's path and query without `lang`, for the language switch. */
function hereOf(c: Context<BoardEnv>): string {
  const url = new URL(c.req.url);
  url.searchParams.delete("lang");
  url.searchParams.delete("done");
  return url.pathname + url.search;
}
