import type { PdfJsDocument } from "./pdfjs";

/** Document metadata from the Info dictionary and XMP, as pdf.js reads them. */
export interface PdfMetadata {
  producer: string | null;
  creator: string | null;
  creationDate: Date | null;
  modDate: Date | null;
  xmpCreateDate: Date | null;
  xmpModifyDate: Date | null;
  xmpProducer: string | null;
  xmpCreatorTool: string | null;
  /** xmpMM:History events (what, with which tool, when). */
  history: { action: string; agent: string; when: string }[];
}

export async function readMetadata(doc: PdfJsDocument): Promise<PdfMetadata> {
  const { info, metadata } = (await doc.getMetadata()) as unknown as {
    info: Record<string, unknown>;
    metadata: { getRaw(): string } | null;
  };
  const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);
  const raw = metadata?.getRaw() ?? "";
  return {
    producer: str(info.Producer),
    creator: str(info.Creator),
    creationDate: parsePdfDate(str(info.CreationDate)),
    modDate: parsePdfDate(str(info.ModDate)),
    xmpCreateDate: isoDate(xmpValue(raw, "xmp:CreateDate")),
    xmpModifyDate: isoDate(xmpValue(raw, "xmp:ModifyDate")),
    xmpProducer: xmpValue(raw, "pdf:Producer"),
    xmpCreatorTool: xmpValue(raw, "xmp:CreatorTool"),
    history: xmpHistory(raw),
  };
}

/** Value of an XMP property written as element or as attribute. */
function xmpValue(xmp: string, name: string): string | null {
  const esc = name.replace(":", "\\:");
  const element = new RegExp(`<${esc}>([^<]*)</${esc}>`).exec(xmp);
  const attribute = new RegExp(`${esc}="([^"]*)"`).exec(xmp);
  const v = (element?.[1] ?? attribute?.[1] ?? "").trim();
  return v === "" ? null : decodeXml(v);
}

function xmpHistory(xmp: string): { action: string; agent: string; when: string }[] {
  const events: { action: string; agent: string; when: string }[] = [];
  const items = xmp.match(/<rdf:li[^>]*stEvt:[\s\S]*?(?:\/>|<\/rdf:li>)/g) ?? [];
  for (const li of items.slice(0, 100)) {
    const get = (k: string) =>
      decodeXml(
        new RegExp(`stEvt:${k}(?:="([^"]*)"|>([^<]*)<)`)
          .exec(li)
          ?.slice(1)
          .find((x) => x !== undefined) ?? "",
      );
    events.push({ action: get("action"), agent: get("softwareAgent"), when: get("when") });
  }
  return events;
}

function decodeXml(s: string): string {
  return s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

function isoDate(s: string | null): Date | null {
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** PDF date `D:YYYYMMDDHHmmSSOHH'mm'` → Date (UTC), or null. */
export function parsePdfDate(s: string | null): Date | null {
  if (!s) return null;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*([Zz+-])?\s*(\d{2})?'?(\d{2})?'?/.exec(s.trim());
  if (!m) return null;
  const [y, mo = "01", d = "01", h = "00", mi = "00", se = "00"] = m.slice(1, 7);
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se));
  const sign = m[7] === "-" ? -1 : m[7] === "+" ? 1 : 0;
  const offset = sign * (Number(m[8] ?? 0) * 60 + Number(m[9] ?? 0)) * 60_000;
  const date = new Date(utc - offset);
  return Number.isNaN(date.getTime()) ? null : date;
}
