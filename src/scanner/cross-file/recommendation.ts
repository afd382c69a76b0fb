/**
 * `agenticRecommendation` (add-on): the case's next step from fixed rules over the findings of every
 * file and of the cross-file analyses, first rule that applies wins (docs/reverse-search.md):
 *
 * 1. refer_to_fraud_unit — a picture seen in another claim, an invoice that exists in two versions
 *    (same number, other amount/date/IBAN), or Red findings together with cross-file contradictions;
 * 2. request_on_site_inspection — other Red findings (manipulated or re-photographed pictures):
 *    the damage has to be seen in person;
 * 3. ask_for_originals — Yellow findings or files that could not be assessed;
 * 4. settle — nothing found.
 *
 * Each reason cites a finding code, its level and the files it is about. No model decides.
 */
import type { FileResult } from "../analysis/file-result";
import type { FindingCode } from "../finding-codes";
import type { Language, SuspicionLevel } from "../types";
import type { CrossFinding } from "./texts";

export type NextStep = "refer_to_fraud_unit" | "request_on_site_inspection" | "ask_for_originals" | "settle";

export interface Reason {
  code: FindingCode;
  level: SuspicionLevel;
  files: string[];
  /** The finding's title in the request's language. */
  text: string;
}

export interface Recommendation {
  action: NextStep;
  summary: string;
  reasons: Reason[];
  filesNotAssessed: string[];
  /** How the action was chosen: the rule set's version (docs/reverse-search.md). */
  rules: string;
}

/** Codes that by themselves send a case to the fraud unit when Red. */
const FRAUD_CODES = new Set<FindingCode>([
  "REVERSE_SEARCH_MATCH",
  "CROSS_INVOICE_NUMBER_CONFLICT",
  "CROSS_IBAN_MISMATCH",
]);
/** How many reasons are listed at most (the strongest first). */
const MAX_REASONS = 12;

const SUMMARY: Record<NextStep, Record<Language, (n: number) => string>> = {
  refer_to_fraud_unit: {
    de: (n) =>
      `An die Betrugsprüfung geben, nicht regulieren: ${n} Befund(e) deuten auf wiederverwendete oder veränderte Belege.`,
    en: (n) => `Refer to the fraud unit, do not settle: ${n} finding(s) point to reused or altered evidence.`,
    pl: (n) =>
      `Przekazać do działu ds. nadużyć, nie likwidować: ${n} ustalenie(a) wskazują na ponownie użyte lub zmienione dowody.`,
  },
  request_on_site_inspection: {
    de: (n) =>
      `Besichtigung vor Ort anfordern: ${n} starke(r) Befund(e) an den Bildern, der Schaden muss selbst gesehen werden.`,
    en: (n) =>
      `Request an on-site inspection: ${n} strong finding(s) on the pictures, the damage has to be seen in person.`,
    pl: (n) =>
      `Zlecić oględziny na miejscu: ${n} poważne(ych) ustalenie(a) dotyczące zdjęć, szkodę trzeba obejrzeć osobiście.`,
  },
  ask_for_originals: {
    de: (n) =>
      `Originaldateien anfordern: ${n} Auffälligkeit(en) oder nicht prüfbare Dateien, Originale (Kameradateien, Original-PDF) klären das meist.`,
    en: (n) =>
      `Ask for the original files: ${n} finding(s) or files that could not be checked; originals (camera files, original PDFs) usually settle it.`,
    pl: (n) =>
      `Poprosić o oryginalne pliki: ${n} nieprawidłowość(ci) lub pliki niemożliwe do sprawdzenia; oryginały (pliki z aparatu, oryginalne PDF) zwykle to wyjaśniają.`,
  },
  settle: {
    de: () => "Regulieren: keine Auffälligkeiten in den Dateien und zwischen ihnen.",
    en: () => "Settle: no findings in the files or between them.",
    pl: () => "Likwidować: brak nieprawidłowości w plikach i między nimi.",
  },
};

const RANK: Record<SuspicionLevel, number> = { Red: 0, Yellow: 1, Green: 2, "-": 3 };

export function agenticRecommendation(
  files: Record<string, FileResult>,
  cross: CrossFinding[],
  language: Language,
): Recommendation {
  const reasons = collectReasons(files, cross);
  const red = reasons.filter((r) => r.level === "Red");
  const notAssessed = Object.entries(files)
    .filter(([, f]) => f.suspicion_level === "-")
    .map(([name]) => name);
  let action: NextStep;
  let cited: Reason[];
  if (red.some((r) => FRAUD_CODES.has(r.code)) || (red.length > 0 && cross.some((c) => c.level !== "Green"))) {
    action = "refer_to_fraud_unit";
    cited = reasons.filter((r) => r.level === "Red" || r.code.startsWith("CROSS_"));
  } else if (red.length > 0) {
    action = "request_on_site_inspection";
    cited = red;
  } else if (reasons.length > 0 || notAssessed.length > 0) {
    action = "ask_for_originals";
    cited = reasons;
  } else {
    action = "settle";
    cited = [];
  }
  return {
    action,
    summary: SUMMARY[action][language](cited.length + (action === "ask_for_originals" ? notAssessed.length : 0)),
    reasons: cited.slice(0, MAX_REASONS),
    filesNotAssessed: notAssessed,
    rules: "1.0",
  };
}

/** Yellow and Red findings, one reason per code and file set, strongest first. */
function collectReasons(files: Record<string, FileResult>, cross: CrossFinding[]): Reason[] {
  const byCode = new Map<string, Reason>();
  const add = (code: FindingCode, level: SuspicionLevel, file: string[], text: string) => {
    if (level !== "Red" && level !== "Yellow") return;
    const key = `${code}\0${level}`;
    const known = byCode.get(key);
    if (known) known.files = [...new Set([...known.files, ...file])];
    else byCode.set(key, { code, level, files: [...file], text });
  };
  for (const c of cross) add(c.code, c.level, c.files, c.title);
  for (const [name, f] of Object.entries(files)) for (const x of f.findings) add(x.code, x.level, [name], x.title);
  return [...byCode.values()].sort((a, b) => RANK[a.level] - RANK[b.level]);
}
