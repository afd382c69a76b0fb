/** How far ahead of now an issueDate may lie (spec 4.4). */
const MAX_DAYS_AHEAD = 5;

const DAY_FIRST = /^(\d{2})([./-])(\d{2})\2(\d{4})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/;
const YEAR_FIRST = /^(\d{4})([.-])(\d{2})\2(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/;

export type IssueDateCheck = { ok: true; date: Date } | { ok: false; message: string };

/**
 * Parses issueDate in the five formats of spec 4.4 (DD.MM.YYYY, DD-MM-YYYY, DD/MM/YYYY,
 * YYYY-MM-DD, YYYY.MM.DD), each optionally followed by HH:MM:SS, read as UTC. Only real
 * calendar dates pass (no 31.04., no 29.02. outside leap years). A date without a time is
 * its start of day, so "today + 5 days" is still accepted for the whole of today.
 */
export function parseIssueDate(raw: string, now: Date): IssueDateCheck {
  const dayFirst = DAY_FIRST.exec(raw);
  const yearFirst = dayFirst ? null : YEAR_FIRST.exec(raw);
  if (!dayFirst && !yearFirst) {
    return {
      ok: false,
      message: "must be DD.MM.YYYY, DD-MM-YYYY, DD/MM/YYYY, YYYY-MM-DD or YYYY.MM.DD, optionally followed by HH:MM:SS",
    };
  }
  const [day, month, year] = dayFirst
    ? [dayFirst[1], dayFirst[3], dayFirst[4]]
    : [yearFirst![4], yearFirst![3], yearFirst![1]];
  const time = (dayFirst ?? yearFirst)!.slice(5, 8).map((t) => (t === undefined ? 0 : Number(t)));
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), time[0], time[1], time[2]));
  const real =
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day) &&
    time[0] <= 23 &&
    time[1] <= 59 &&
    time[2] <= 59;
  if (!real) return { ok: false, message: "is not a real calendar date and time" };
  if (date.getTime() > now.getTime() + MAX_DAYS_AHEAD * 86_400_000)
    return { ok: false, message: `may not be more than ${MAX_DAYS_AHEAD} days in the future` };
  return { ok: true, date };
}
