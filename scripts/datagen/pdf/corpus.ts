// The generated evaluation set: untouched invoices and their edited twins (no Node APIs, so the
// workerd tests may use it too). `signedSources` are real signed PDFs (pyHanko/qpdf test data)
// that get a visible change appended after their signature.
import { editAmountIncrementally, makeInvoice, whiteBoxIncrementally, whiteBoxRewritten, type Invoice } from "./edits";

export type EditKind =
  | "none"
  | "amount-incremental"
  | "white-box-incremental"
  | "white-box-rewritten"
  | "signed-then-modified";

export interface GeneratedPdf {
  name: string;
  edit: EditKind;
  bytes: Uint8Array;
  /** What the edit changed, for the report. */
  note: string;
}

const TOTAL_BOX = { x: 418, y: 634, w: 90, h: 16 };

/** `count` invoices with different totals, each untouched and edited three ways. */
export async function generateInvoices(count: number): Promise<GeneratedPdf[]> {
  const out: GeneratedPdf[] = [];
  for (let i = 0; i < count; i++) {
    const total = `${1 + (i % 9)}.${String(100 + ((i * 37) % 900)).padStart(3, "0")},${String((i * 13) % 100).padStart(2, "0")} EUR`;
    const forged = `${(2 + (i % 7)) % 10}${total.slice(1)}`;
    const inv: Invoice = {
      number: `RE-2026-${1000 + i}`,
      date: `${String(1 + (i % 28)).padStart(2, "0")}.11.2026`,
      lines: [
        ["Reparatur", "800,00 EUR"],
        ["Material", "99,00 EUR"],
      ],
      total,
    };
    const original = await makeInvoice(inv);
    const id = String(i + 1).padStart(2, "0");
    out.push({ name: `invoice-${id}.pdf`, edit: "none", bytes: original, note: total });
    out.push({
      name: `invoice-${id}-amount.pdf`,
      edit: "amount-incremental",
      bytes: await editAmountIncrementally(original, total, forged),
      note: `${total} -> ${forged}`,
    });
    out.push({
      name: `invoice-${id}-whitebox.pdf`,
      edit: "white-box-incremental",
      bytes: await whiteBoxIncrementally(original, TOTAL_BOX, forged),
      note: `${total} covered, ${forged} on top`,
    });
    out.push({
      name: `invoice-${id}-rewritten.pdf`,
      edit: "white-box-rewritten",
      bytes: await whiteBoxRewritten(original, TOTAL_BOX, forged),
      note: `${total} covered, saved as one revision`,
    });
  }
  return out;
}

/** A real signed file with a white box and a new amount appended after its signature. */
export async function signedThenModified(name: string, signed: Uint8Array): Promise<GeneratedPdf> {
  return {
    name: name.replace(/\.pdf$/, "-modified.pdf"),
    edit: "signed-then-modified",
    bytes: await whiteBoxIncrementally(signed, { x: 50, y: 50, w: 110, h: 20 }, "99.999,00 EUR"),
    note: "content appended after the signature",
  };
}

export const signedSources = [
  "qpdf/digitally-signed.pdf",
  "pyhanko/pdf-sig-with-econtent.pdf",
  "pyhanko/minimal-signed-twice-no-sig-type.pdf",
  "pyhanko/sig-with-ski-sid.pdf",
  "pyhanko/pades-lta-dss-indirect-arrs-test.pdf",
];
