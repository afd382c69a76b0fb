/**
 * `cross_file_analyses` (add-on `crossFileAnalyses`, docs/reverse-search.md): what only shows when
 * the files of one request are read together. Everything comes from the per-file metadata the
 * detectors already wrote (hashes, EXIF, JPEG tables, PDF info and text fields), so it costs no
 * decoding. Each finding names its files; the recommendation cites them.
 */
import type { FileResult } from "../analysis/file-result";
import { MAX_COMBINED_DISTANCE, MAX_DCT_DISTANCE } from "../similarity/band-index";
import { hashesOf } from "../similarity/hash-metadata";
import { hammingDistance, type PerceptualHashes } from "../similarity/perceptual-hash";
import type { Language, SuspicionLevel } from "../types";
import { type DocumentFields, skeletonSimilarity } from "./fields";
import { crossFinding, type CrossFinding } from "./texts";

/** Capture dates further apart than this are one finding (days). */
const CAPTURE_SPREAD_DAYS = 30;
/** Photos further apart than this are one finding (km). */
const LOCATION_SPREAD_KM = 50;
/** Documents whose masked words overlap this much (Jaccard) come from one template. */
const TEMPLATE_SIMILARITY = 0.6;
/** Creation times of two documents this close (minutes) with the same producer: made together. */
const CREATED_TOGETHER_MIN = 10;
/** A document date this many days before the first photo is earlier than the damage it documents. */
const DATE_TOLERANCE_DAYS = 1;

export interface CrossFileAnalyses {
  comparedFiles: number;
  identicalFiles: { sha256: string; files: string[] }[];
  nearDuplicateImages: { files: [string, string]; dctDistance: number; blockMeanDistance: number; mirrored: boolean }[];
  cameras: {
    make: string | null;
    model: string | null;
    serial: string | null;
    quantTables: string | null;
    files: string[];
  }[];
  captures: { file: string; capturedAt: string | null; gps: { latitude: number; longitude: number } | null }[];
  documents: {
    file: string;
    producer: string | null;
    creator: string | null;
    creationDate: string | null;
    fields: Omit<DocumentFields, "skeleton"> | null;
  }[];
  findings: CrossFinding[];
}

interface Context {
  language: Language;
  /** The request's issueDate (ISO), if given. */
  issueDate: string | null;
}

type Meta = Record<string, Record<string, unknown> | undefined>;

export function crossFileAnalyses(files: Record<string, FileResult>, ctx: Context): CrossFileAnalyses {
  const entries = Object.entries(files);
  const findings: CrossFinding[] = [];
  const images = entries.flatMap(([name, f]) => {
    const hashes = hashesOf(f.metadata);
    return hashes ? [{ name, file: f, hashes }] : [];
  });
  const identicalFiles = identical(entries);
  const nearDuplicateImages = nearDuplicates(images, identicalFiles);
  if (nearDuplicateImages.length > 0)
    findings.push(
      crossFinding(
        ctx.language,
        "CROSS_NEAR_DUPLICATE_IMAGES",
        "Yellow",
        nearDuplicateImages.flatMap((d) => d.files),
        {
          pairs: nearDuplicateImages,
        },
      ),
    );

  const cameras = camerasOf(images.map((i) => ({ name: i.name, meta: i.file.metadata as Meta })));
  cameraFindings(cameras, ctx.language, findings);
  const captures = images.map((i) => captureOf(i.name, i.file.metadata as Meta));
  captureFindings(captures, ctx, findings);

  const documents = entries
    .filter(([, f]) => f.type === "pdf")
    .map(([name, f]) => documentOf(name, f.metadata as Meta));
  documentFindings(documents, ctx, findings);
  dateFindings(documents, captures, ctx, findings);

  return {
    comparedFiles: entries.length,
    identicalFiles,
    nearDuplicateImages,
    cameras,
    captures,
    documents: documents.map(({ skeleton: _s, fields, ...d }) => ({ ...d, fields })),
    findings,
  };
}

function identical(entries: [string, FileResult][]) {
  const byHash = new Map<string, string[]>();
  for (const [name, file] of entries)
    if (file.sha256) byHash.set(file.sha256, [...(byHash.get(file.sha256) ?? []), name]);
  return [...byHash.entries()]
    .filter(([, names]) => names.length > 1)
    .map(([sha256, names]) => ({ sha256, files: names }));
}

function nearDuplicates(
  images: { name: string; file: FileResult; hashes: PerceptualHashes }[],
  identicalFiles: { files: string[] }[],
) {
  const sameBytes = (a: string, b: string) => identicalFiles.some((g) => g.files.includes(a) && g.files.includes(b));
  const out: CrossFileAnalyses["nearDuplicateImages"] = [];
  for (let i = 0; i < images.length; i++)
    for (let j = i + 1; j < images.length; j++) {
      const a = images[i];
      const b = images[j];
      if (sameBytes(a.name, b.name)) continue;
      const straight = {
        dct: hammingDistance(a.hashes.dct, b.hashes.dct),
        bm: hammingDistance(a.hashes.blockMean, b.hashes.blockMean),
      };
      const flipped = {
        dct: hammingDistance(a.hashes.dctMirrored, b.hashes.dct),
        bm: hammingDistance(a.hashes.blockMeanMirrored, b.hashes.blockMean),
      };
      const mirrored = flipped.dct + flipped.bm < straight.dct + straight.bm;
      const d = mirrored ? flipped : straight;
      if (d.dct <= MAX_DCT_DISTANCE && d.dct + d.bm <= MAX_COMBINED_DISTANCE)
        out.push({ files: [a.name, b.name], dctDistance: d.dct, blockMeanDistance: d.bm, mirrored });
    }
  return out;
}

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

function camerasOf(images: { name: string; meta: Meta }[]): CrossFileAnalyses["cameras"] {
  const groups = new Map<string, CrossFileAnalyses["cameras"][number]>();
  for (const { name, meta } of images) {
    const camera = {
      make: text(meta.metadata?.make),
      model: text(meta.metadata?.model),
      serial: text(meta.metadata?.serial),
      quantTables: text(meta["jpeg-structure"]?.lumaTableFingerprint),
    };
    if (!camera.make && !camera.model && !camera.serial) continue;
    const key = JSON.stringify(camera);
    const group = groups.get(key) ?? { ...camera, files: [] };
    group.files.push(name);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** One camera model with two serial numbers or two quantisation tables: re-saved, edited or two devices posing as one. */
function cameraFindings(cameras: CrossFileAnalyses["cameras"], language: Language, out: CrossFinding[]): void {
  const byModel = new Map<string, CrossFileAnalyses["cameras"]>();
  for (const c of cameras) {
    const key = `${c.make ?? ""}\0${c.model ?? ""}`;
    byModel.set(key, [...(byModel.get(key) ?? []), c]);
  }
  for (const group of byModel.values()) {
    const serials = new Set(group.flatMap((c) => (c.serial ? [c.serial] : [])));
    const tables = new Set(group.flatMap((c) => (c.quantTables ? [c.quantTables] : [])));
    if (serials.size > 1 || tables.size > 1)
      out.push(
        crossFinding(
          language,
          "CROSS_CAMERA_MISMATCH",
          "Yellow",
          group.flatMap((c) => c.files),
          {
            make: group[0].make,
            model: group[0].model,
            serials: [...serials],
            quantTables: [...tables],
          },
        ),
      );
  }
}

function captureOf(name: string, meta: Meta): CrossFileAnalyses["captures"][number] {
  const raw = text(meta.metadata?.dateTimeOriginal);
  const iso = raw ? raw.replace(/^(\d{4}):(\d{2}):(\d{2}) /, "$1-$2-$3T") : null;
  const gps = meta.metadata?.gps as { latitude: number; longitude: number } | null | undefined;
  return { file: name, capturedAt: iso && !Number.isNaN(Date.parse(iso)) ? iso : null, gps: gps ?? null };
}

function captureFindings(captures: CrossFileAnalyses["captures"], ctx: Context, out: CrossFinding[]): void {
  const dated = captures.filter((c) => c.capturedAt).sort((a, b) => a.capturedAt!.localeCompare(b.capturedAt!));
  if (dated.length > 1) {
    const days = (Date.parse(dated.at(-1)!.capturedAt!) - Date.parse(dated[0].capturedAt!)) / 86_400_000;
    if (days > CAPTURE_SPREAD_DAYS)
      out.push(
        crossFinding(ctx.language, "CROSS_CAPTURE_TIME_SPREAD", "Yellow", [dated[0].file, dated.at(-1)!.file], {
          first: dated[0].capturedAt,
          last: dated.at(-1)!.capturedAt,
          days: Math.round(days),
        }),
      );
  }
  const placed = captures.filter((c) => c.gps);
  let widest: { km: number; files: [string, string] } | null = null;
  for (let i = 0; i < placed.length; i++)
    for (let j = i + 1; j < placed.length; j++) {
      const km = distanceKm(placed[i].gps!, placed[j].gps!);
      if (!widest || km > widest.km) widest = { km, files: [placed[i].file, placed[j].file] };
    }
  if (widest && widest.km > LOCATION_SPREAD_KM)
    out.push(
      crossFinding(ctx.language, "CROSS_CAPTURE_LOCATION_SPREAD", "Yellow", widest.files, {
        km: Math.round(widest.km),
      }),
    );
}

function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

interface DocumentFacts {
  file: string;
  producer: string | null;
  creator: string | null;
  creationDate: string | null;
  fields: Omit<DocumentFields, "skeleton"> | null;
  skeleton: string[];
}

function documentOf(name: string, meta: Meta): DocumentFacts {
  const structure = meta["pdf-structure"] ?? {};
  const raw = meta["pdf-fields"] as (DocumentFields & Record<string, unknown>) | undefined;
  const { skeleton = [], ...fields } = raw ?? ({} as Partial<DocumentFields>);
  return {
    file: name,
    producer: text(structure.producer),
    creator: text(structure.creator),
    creationDate: text(structure.creationDate),
    fields: raw ? (fields as Omit<DocumentFields, "skeleton">) : null,
    skeleton,
  };
}

function documentFindings(documents: DocumentFacts[], ctx: Context, out: CrossFinding[]): void {
  for (let i = 0; i < documents.length; i++)
    for (let j = i + 1; j < documents.length; j++) {
      const a = documents[i];
      const b = documents[j];
      const files = [a.file, b.file];
      const sameProducer = a.producer !== null && a.producer === b.producer && a.creator === b.creator;
      const similarity = skeletonSimilarity(a.skeleton, b.skeleton);
      if (similarity >= TEMPLATE_SIMILARITY)
        out.push(
          crossFinding(ctx.language, "CROSS_SHARED_TEMPLATE", "Yellow", files, {
            wordOverlap: Math.round(similarity * 100) / 100,
            producer: a.producer === b.producer ? a.producer : null,
          }),
        );
      const minutes =
        a.creationDate && b.creationDate
          ? Math.abs(Date.parse(a.creationDate) - Date.parse(b.creationDate)) / 60_000
          : null;
      if (sameProducer && minutes !== null && minutes <= CREATED_TOGETHER_MIN)
        out.push(
          crossFinding(ctx.language, "CROSS_SHARED_CREATION", "Yellow", files, {
            producer: a.producer,
            creator: a.creator,
            creationDates: [a.creationDate, b.creationDate],
          }),
        );
      fieldConflicts(a, b, ctx.language, out);
    }
}

/** The same invoice number with another total or date; several IBANs or licence plates for one claim. */
function fieldConflicts(a: DocumentFacts, b: DocumentFacts, language: Language, out: CrossFinding[]): void {
  if (!a.fields || !b.fields) return;
  const files = [a.file, b.file];
  const shared = a.fields.invoiceNumbers.filter((n) => b.fields!.invoiceNumbers.includes(n));
  const totalsDiffer = a.fields.total !== null && b.fields.total !== null && a.fields.total !== b.fields.total;
  const datesDiffer =
    a.fields.documentDate !== null && b.fields.documentDate !== null && a.fields.documentDate !== b.fields.documentDate;
  if (shared.length > 0 && (totalsDiffer || datesDiffer))
    out.push(
      crossFinding(language, "CROSS_INVOICE_NUMBER_CONFLICT", "Red", files, {
        invoiceNumbers: shared,
        totals: [a.fields.total, b.fields.total],
        documentDates: [a.fields.documentDate, b.fields.documentDate],
      }),
    );
  const conflict = (
    code: "CROSS_IBAN_MISMATCH" | "CROSS_PLATE_MISMATCH",
    x: string[],
    y: string[],
    level: SuspicionLevel,
  ) => {
    if (x.length > 0 && y.length > 0 && !x.some((v) => y.includes(v)))
      out.push(crossFinding(language, code, level, files, { values: [x, y] }));
  };
  conflict("CROSS_PLATE_MISMATCH", a.fields.licencePlates, b.fields.licencePlates, "Yellow");
  if (shared.length > 0) conflict("CROSS_IBAN_MISMATCH", a.fields.ibans, b.fields.ibans, "Red");
}

/** Documents dated before the first photo (the damage), or after the request's issueDate. */
function dateFindings(
  documents: DocumentFacts[],
  captures: CrossFileAnalyses["captures"],
  ctx: Context,
  out: CrossFinding[],
): void {
  const firstCapture = captures
    .flatMap((c) => (c.capturedAt ? [{ file: c.file, at: c.capturedAt }] : []))
    .sort((a, b) => a.at.localeCompare(b.at))[0];
  for (const d of documents) {
    const date = d.fields?.documentDate;
    if (!date) continue;
    const daysBefore = firstCapture ? (Date.parse(firstCapture.at.slice(0, 10)) - Date.parse(date)) / 86_400_000 : 0;
    if (firstCapture && daysBefore > DATE_TOLERANCE_DAYS)
      out.push(
        crossFinding(ctx.language, "CROSS_DOCUMENT_BEFORE_PHOTOS", "Yellow", [d.file, firstCapture.file], {
          documentDate: date,
          firstCapture: firstCapture.at,
          daysBefore: Math.round(daysBefore),
        }),
      );
    const issue = ctx.issueDate?.slice(0, 10);
    if (issue && date > issue)
      out.push(
        crossFinding(ctx.language, "CROSS_DOCUMENT_AFTER_ISSUE_DATE", "Yellow", [d.file], {
          documentDate: date,
          issueDate: issue,
        }),
      );
  }
}
