import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFStream,
  PDFString,
  PDFHexString,
  type PDFDocument,
  type PDFObject,
} from "pdf-lib";
import { pdfLimits } from "./limits";

/** Active content, attachments and fonts found by looking at every object of the file. */
export interface ObjectScan {
  objects: number;
  truncated: boolean;
  javascript: number;
  launch: number;
  openAction: string | null;
  embeddedFiles: string[];
  xfa: boolean;
  /** BaseFont names as embedded (with subset prefixes). */
  fonts: string[];
}

export function scanObjects(doc: PDFDocument): ObjectScan {
  const scan: ObjectScan = {
    objects: 0,
    truncated: false,
    javascript: 0,
    launch: 0,
    openAction: null,
    embeddedFiles: [],
    xfa: false,
    fonts: [],
  };
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (++scan.objects > pdfLimits.maxObjectsScanned) {
      scan.truncated = true;
      break;
    }
    const dict = obj instanceof PDFDict ? obj : obj instanceof PDFStream ? obj.dict : null;
    if (dict) inspectDict(dict, scan);
  }
  const open = doc.catalog.get(PDFName.of("OpenAction"));
  if (open) scan.openAction = describeAction(doc.context.lookup(open));
  scan.fonts = [...new Set(scan.fonts)];
  scan.embeddedFiles = [...new Set(scan.embeddedFiles)].slice(0, pdfLimits.maxImages);
  return scan;
}

function inspectDict(dict: PDFDict, scan: ObjectScan): void {
  const name = (key: string) =>
    dict.get(PDFName.of(key)) instanceof PDFName ? (dict.get(PDFName.of(key)) as PDFName).decodeText() : null;
  const s = name("S");
  if (s === "JavaScript" || dict.has(PDFName.of("JS"))) scan.javascript++;
  if (s === "Launch") scan.launch++;
  if (dict.has(PDFName.of("XFA"))) scan.xfa = true;
  const type = name("Type");
  if (type === "Font" && name("BaseFont")) scan.fonts.push(name("BaseFont") as string);
  if (type === "Filespec" || dict.has(PDFName.of("EF")))
    scan.embeddedFiles.push(text(dict.get(PDFName.of("UF"))) ?? text(dict.get(PDFName.of("F"))) ?? "(unnamed)");
}

function text(v: PDFObject | undefined): string | null {
  if (v instanceof PDFString || v instanceof PDFHexString) return v.decodeText();
  return null;
}

function describeAction(action: PDFObject | undefined): string {
  if (action instanceof PDFArray) return "GoTo";
  if (action instanceof PDFDict) {
    const s = action.get(PDFName.of("S"));
    return s instanceof PDFName ? s.decodeText() : "unknown";
  }
  return "unknown";
}
