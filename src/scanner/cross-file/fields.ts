/**
 * Fields read from a document's text for the cross-file analyses (docs/reverse-search.md, "Cross-file
 * analyses"): dates, amounts, IBANs, invoice numbers, names and licence plates, in German, English
 * and Polish layouts, plus the document's "skeleton" (its words with every digit masked), which
 * documents made from one template share. Labels decide what a value is; unlabelled values are kept
 * as plain lists. Pure functions on text: no PDF here.
 */

export interface DocumentFields {
  /** The labelled document/invoice date (ISO yyyy-mm-dd), else the first date in the text. */
  documentDate: string | null;
  dates: string[];
  /** The labelled total (gross) amount, in the document's currency units. */
  total: number | null;
  amounts: number[];
  ibans: string[];
  invoiceNumbers: string[];
  names: string[];
  licencePlates: string[];
  /** Distinct words with digits masked, sorted (at most SKELETON_WORDS). */
  skeleton: string[];
}

const SKELETON_WORDS = 300;
const MAX_VALUES = 20;

const DATE_LABEL =
  "(?:rechnungsdatum|belegdatum|ausstellungsdatum|datum|invoice date|date of issue|date|data wystawienia|data)";
const TOTAL_LABEL =
  "(?:gesamtbetrag|rechnungsbetrag|endbetrag|gesamtsumme|bruttobetrag|gesamt|summe|total amount|amount due|grand total|total|do zapłaty|razem|suma|wartość brutto)";
const INVOICE_LABEL = String.raw`(?:rechnungs-?nr\.?|rechnungsnummer|rechnung nr\.?|beleg-?nr\.?|invoice no\.?|invoice number|invoice #|faktura vat nr|faktura nr|numer faktury|nr faktury)`;
const NAME_LABEL =
  "(?:kunde|auftraggeber|versicherungsnehmer|name|customer|client|bill to|policyholder|klient|nabywca|ubezpieczony)";
const PLATE_LABEL = String.raw`(?:amtl\.? kennzeichen|kennzeichen|kfz-kennzeichen|licen[cs]e plate|registration(?: number)?|nr rej(?:estracyjny)?\.?|numer rejestracyjny)`;

const DATE = String.raw`(\d{1,2})[./-](\d{1,2})[./-](\d{4})|(\d{4})-(\d{2})-(\d{2})`;
const AMOUNT = String.raw`(\d{1,3}(?:[.\s]\d{3})+,\d{2}|\d{1,3}(?:,\d{3})+\.\d{2}|\d+[.,]\d{2})`;

/** Every field of the text (pages joined). */
export function documentFields(text: string): DocumentFields {
  const dates = unique([...text.matchAll(new RegExp(DATE, "g"))].flatMap((m) => isoDate(m) ?? []));
  const labelledDate = new RegExp(`${DATE_LABEL}\\s*[:.]?\\s*(?:${DATE})`, "i").exec(text);
  const amounts = unique(
    [...text.matchAll(new RegExp(`${AMOUNT}(?=\\s*(?:€|eur|pln|zł|usd|\\$|chf|$|\\s))`, "gim"))].map((m) =>
      parseAmount(m[1]),
    ),
  );
  const labelledTotal = new RegExp(`${TOTAL_LABEL}[^\\d\\n]{0,30}${AMOUNT}`, "i").exec(text);
  return {
    documentDate: (labelledDate && isoDate(labelledDate.slice(1))) ?? dates[0] ?? null,
    dates: dates.slice(0, MAX_VALUES),
    total: labelledTotal ? parseAmount(labelledTotal[1]) : null,
    amounts: amounts.slice(0, MAX_VALUES),
    ibans: ibansOf(text),
    invoiceNumbers: labelled(text, INVOICE_LABEL, String.raw`([A-Z0-9][A-Z0-9/\-.]{2,30}[A-Z0-9])`, "i"),
    names: labelled(text, NAME_LABEL, String.raw`(\p{Lu}[\p{Ll}'-]+(?: \p{Lu}[\p{Ll}'-]+){1,3})`, "iu"),
    licencePlates: labelled(
      text,
      PLATE_LABEL,
      // German (B-XY 1234), British (AB12 CDE), Polish (WA 12345) and similar.
      String.raw`([A-ZÄÖÜ]{1,3}[- ][A-Z]{1,2} ?\d{1,4}[EH]?|[A-Z]{2}\d{2} ?[A-Z]{3}|[A-Z]{2,3} ?[0-9A-Z]{4,5})`,
      "i",
    ).map((p) => p.toUpperCase().replace(/\s+/g, " ")),
    skeleton: skeletonOf(text),
  };
}

/** Jaccard similarity of two skeletons (0–1). */
export function skeletonSimilarity(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const set = new Set(a);
  const shared = b.filter((w) => set.has(w)).length;
  return shared / (set.size + b.length - shared);
}

function labelled(text: string, label: string, value: string, flags: string): string[] {
  const re = new RegExp(`${label}\\s*[:#.]?\\s*${value}`, `g${flags}`);
  return unique([...text.matchAll(re)].map((m) => m[1].trim())).slice(0, MAX_VALUES);
}

function isoDate(m: (string | undefined)[]): string | null {
  const [d, mo, y] = m[1] ? [m[1], m[2], m[3]] : [m[6], m[5], m[4]];
  if (!d || !mo || !y) return null;
  const day = Number(d);
  const month = Number(mo);
  const year = Number(y);
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1900 || year > 2100) return null;
  const iso = `${y}-${mo.padStart(2, "0")}-${d.padStart(2, "0")}`;
  return Number.isNaN(Date.parse(iso)) ? null : iso;
}

/** "4.850,00", "4 850,00", "4,850.00" and "4850.00" → 4850. */
export function parseAmount(text: string): number {
  const compact = text.replace(/\s/g, "");
  const decimalComma = /,\d{2}$/.test(compact);
  const normalised = decimalComma ? compact.replace(/\./g, "").replace(",", ".") : compact.replace(/,/g, "");
  return Math.round(Number(normalised) * 100) / 100;
}

function ibansOf(text: string): string[] {
  const candidates = text.toUpperCase().matchAll(/\b([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?)\b/g);
  return unique([...candidates].map((m) => m[1].replace(/\s/g, "")).filter(validIban)).slice(0, MAX_VALUES);
}

/** ISO 13616 check digits (mod 97 = 1). */
export function validIban(iban: string): boolean {
  if (iban.length < 15 || iban.length > 34) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

function skeletonOf(text: string): string[] {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1)
    .map((w) => w.replace(/\d/g, "9"));
  return unique(words).sort().slice(0, SKELETON_WORDS);
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
