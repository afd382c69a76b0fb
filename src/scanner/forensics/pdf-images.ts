import { finding, type FindingText } from "../finding";
import type { Analyzer, AnalyzerResult, ScanContext, ScanFile } from "../types";
import { isScanPage } from "../pdf/content-checks";
import { extractDecodedImagesOnly, extractPageImages, type PageImage } from "../pdf/images";
import { pageModels } from "../pdf/pages";
import { revisionsOf } from "../pdf/parsed";
import { pdfReadable } from "../pdf/stream-budget";
import { openPdfLib } from "../pdf/pdflib";

/**
 * Hands the images inside a PDF to the image detectors: embedded JPEGs as stored (EXIF and
 * compression traces intact), other images decoded to PNG, named `<file>#p<page>-<n>.<ext>`.
 * Pages that are one full-page image are scans: their image is what the document really is.
 */
export const pdfImages: Analyzer = {
  id: "pdf-images",
  version: "1.0.0",
  appliesTo: (file) => file.kind === "pdf" && !file.source,
  async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
    const lang = ctx.language;
    // Too large, no header or over its unpack budget: pdf-structure's finding says so once for all.
    if (!pdfReadable(file.bytes)) return { assessed: false, findings: [] };
    let images: PageImage[];
    let undecodable: { page: number; filter: string }[];
    try {
      const trailer = revisionsOf(file.bytes).revisions.at(-1)?.sections[0]?.trailer;
      const encrypted = !!trailer && "Encrypt" in trailer.v;
      const structure = await openPdfLib(file.bytes).catch(() => null);
      const viaStructure = structure
        ? await extractPageImages(structure, file.bytes, encrypted).catch(() => null)
        : null;
      ({ images, undecodable } = viaStructure ?? (await extractDecodedImagesOnly(file.bytes)));
    } catch (e) {
      return {
        assessed: false,
        findings: [finding(lang, "PDF_IMAGES_UNREADABLE", "-", T.unreadable, { reason: String(e).slice(0, 200) })],
      };
    }
    const scanned = await pageModels(file.bytes)
      .then((pages) => pages.filter(isScanPage).map((p) => p.page))
      .catch(() => [] as number[]);
    const extracted = await Promise.all(images.map((img) => toScanFile(file.name, img)));
    const findings = [];
    if (scanned.length > 0) findings.push(finding(lang, "PDF_SCANNED_PAGES", "Green", T.scan, { pages: scanned }));
    if (images.length > 0)
      findings.push(
        finding(lang, "PDF_IMAGES_EXTRACTED", "Green", T.extracted, {
          images: images.map((i) => ({
            name: imageName(file.name, i),
            origin: i.origin,
            width: i.width,
            height: i.height,
          })),
        }),
      );
    if (undecodable.length > 0)
      findings.push(finding(lang, "PDF_IMAGES_NOT_DECODED", "-", T.undecodable, { images: undecodable.slice(0, 20) }));
    return {
      assessed: true,
      findings,
      extracted,
      metadata: { images: images.length, scannedPages: scanned, undecodable: undecodable.length },
    };
  },
};

export function imageName(parent: string, img: PageImage): string {
  return `${parent}#p${img.page}-${img.index}.${img.ext}`;
}

async function toScanFile(parent: string, img: PageImage): Promise<ScanFile> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", img.bytes));
  return {
    name: imageName(parent, img),
    bytes: img.bytes,
    kind: img.ext === "jpg" ? "jpeg" : "png",
    mimeType: img.ext === "jpg" ? "image/jpeg" : "image/png",
    sha256: [...digest].map((b) => b.toString(16).padStart(2, "0")).join(""),
    size: img.bytes.length,
    source: { parent, page: img.page },
  };
}

const T = {
  unreadable: {
    de: { title: "Bilder nicht lesbar", explanation: "Die Bilder in der PDF-Datei konnten nicht gelesen werden." },
    en: { title: "Images not readable", explanation: "The images inside the PDF could not be read." },
    pl: { title: "Obrazy nieczytelne", explanation: "Nie udało się odczytać obrazów w pliku PDF." },
  },
  scan: {
    de: {
      title: "Gescannte Seiten",
      explanation:
        "Diese Seiten bestehen aus einem einzigen, seitenfüllenden Bild (Scan oder Foto). Das Bild wurde entnommen und wird wie ein Foto geprüft.",
    },
    en: {
      title: "Scanned pages",
      explanation:
        "These pages consist of one page-filling image (a scan or photo). The image was taken out and is checked like a photo.",
    },
    pl: {
      title: "Zeskanowane strony",
      explanation:
        "Te strony składają się z jednego obrazu na całą stronę (skan lub zdjęcie). Obraz wyodrębniono i sprawdzono jak zdjęcie.",
    },
  },
  undecodable: {
    de: {
      title: "Bilder nicht geprüft",
      explanation:
        "Einige Bilder sind als JPEG 2000 oder JBIG2 gespeichert; diese Formate können hier nicht dekodiert werden, die Bilder wurden daher nicht geprüft.",
    },
    en: {
      title: "Images not checked",
      explanation:
        "Some images are stored as JPEG 2000 or JBIG2; these formats cannot be decoded here, so those images were not checked.",
    },
    pl: {
      title: "Obrazy niesprawdzone",
      explanation:
        "Niektóre obrazy zapisano jako JPEG 2000 lub JBIG2; tych formatów nie można tu zdekodować, więc obrazów nie sprawdzono.",
    },
  },
  extracted: {
    de: {
      title: "Eingebettete Bilder entnommen",
      explanation:
        "Die Bilder der PDF-Datei wurden entnommen (JPEGs unverändert, andere als PNG) und einzeln geprüft; ihre Ergebnisse stehen unter ihren eigenen Namen.",
    },
    en: {
      title: "Embedded images extracted",
      explanation:
        "The PDF's images were taken out (JPEGs unchanged, others as PNG) and checked one by one; their results are listed under their own names.",
    },
    pl: {
      title: "Wyodrębniono osadzone obrazy",
      explanation:
        "Obrazy z PDF wyodrębniono (JPEG bez zmian, inne jako PNG) i sprawdzono osobno; ich wyniki są pod ich własnymi nazwami.",
    },
  },
} satisfies Record<string, FindingText>;
