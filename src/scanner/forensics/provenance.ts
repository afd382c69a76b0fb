/**
 * Provenance detector: C2PA content credentials (claim generator, actions, ingredients, hash
 * binding; the signature is reported as present but not checked against a trust list), the
 * IPTC/XMP DigitalSourceType, and the generation parameters AI image tools write into PNG text.
 */
import { finding, type FindingText } from "../finding";
import { type C2paSummary, readC2pa } from "../images/c2pa";
import { isJpeg, parseJpegStructure } from "../images/jpeg-markers";
import { isPng, pngText } from "../images/png-chunks";
import type { Analyzer, AnalyzerResult, Finding, ScanContext, ScanFile } from "../types";

/** IPTC digital source types that mean "made or changed by a generative model". */
const AI_SOURCE_TYPES =
  /trainedAlgorithmicMedia|compositeWithTrainedAlgorithmicMedia|algorithmicMedia|compositeSynthetic/i;
/** C2PA actions that change content. */
const EDIT_ACTIONS =
  /c2pa\.(edited|filtered|color_adjustments|cropped|resized|drawing|placed|removed|transcoded|converted|repackaged)/;
/** PNG text keys written by Stable Diffusion front-ends (A1111 "parameters", ComfyUI "prompt"/"workflow"). */
const AI_PNG_KEYS = ["parameters", "prompt", "workflow", "Dream", "sd-metadata", "invokeai_metadata"];

/** DigitalSourceType values in the XMP packets (JPEG APP1, PNG iTXt). */
export function digitalSourceTypes(bytes: Uint8Array): string[] {
  const texts: string[] = [];
  const latin1 = new TextDecoder("latin1");
  if (isJpeg(bytes))
    for (const s of parseJpegStructure(bytes).segments) if (s.marker === 0xe1) texts.push(latin1.decode(s.data));
  if (isPng(bytes)) texts.push(...Object.values(pngText(bytes)));
  const found = new Set<string>();
  for (const t of texts)
    for (const m of t.matchAll(/DigitalSourceType\s*(?:=\s*["']|>)\s*([^"'<\s]+)/gi)) found.add(m[1]);
  return [...found];
}

const texts = {
  ai: (what: string): FindingText => ({
    en: {
      title: "Declared as AI-generated",
      explanation: `The file itself declares that it was created or changed by a generative AI model (${what}). It is not a photo of a real scene.`,
    },
    de: {
      title: "Als KI-generiert gekennzeichnet",
      explanation: `Die Datei erklärt selbst, dass sie von einem generativen KI-Modell erzeugt oder verändert wurde (${what}). Sie ist kein Foto einer realen Szene.`,
    },
    pl: {
      title: "Oznaczone jako wygenerowane przez AI",
      explanation: `Plik sam deklaruje, że został utworzony lub zmieniony przez generatywny model AI (${what}). Nie jest zdjęciem rzeczywistej sceny.`,
    },
  }),
  edited: (actions: string): FindingText => ({
    en: {
      title: "Content credentials record editing",
      explanation: `The C2PA content credentials list these editing steps: ${actions}.`,
    },
    de: {
      title: "Herkunftsnachweis verzeichnet Bearbeitung",
      explanation: `Der C2PA-Herkunftsnachweis nennt diese Bearbeitungsschritte: ${actions}.`,
    },
    pl: {
      title: "Poświadczenia treści odnotowują edycję",
      explanation: `Poświadczenia treści C2PA wymieniają te kroki edycji: ${actions}.`,
    },
  }),
  hashMismatch: {
    en: {
      title: "Changed after the content credentials were signed",
      explanation:
        "The fingerprint stored in the C2PA content credentials no longer matches the file: the picture was changed after it was signed.",
    },
    de: {
      title: "Nach dem Signieren des Herkunftsnachweises verändert",
      explanation:
        "Der im C2PA-Herkunftsnachweis gespeicherte Fingerabdruck passt nicht mehr zur Datei: das Bild wurde nach dem Signieren verändert.",
    },
    pl: {
      title: "Zmienione po podpisaniu poświadczeń treści",
      explanation:
        "Odcisk zapisany w poświadczeniach treści C2PA nie pasuje już do pliku: zdjęcie zmieniono po podpisaniu.",
    },
  } as FindingText,
  present: (a: { generator: string; hashMatches: boolean | null }): FindingText => ({
    en: {
      title: "Content credentials (C2PA) present",
      explanation: `Created by: ${a.generator}. Fingerprint check: ${a.hashMatches === null ? "not available" : a.hashMatches ? "matches" : "does not match"}. The signature is present but was not checked against a list of trusted issuers.`,
    },
    de: {
      title: "Herkunftsnachweis (C2PA) vorhanden",
      explanation: `Erstellt von: ${a.generator}. Prüfung des Fingerabdrucks: ${a.hashMatches === null ? "nicht möglich" : a.hashMatches ? "stimmt überein" : "stimmt nicht überein"}. Die Signatur ist vorhanden, wurde aber nicht gegen eine Liste vertrauenswürdiger Aussteller geprüft.`,
    },
    pl: {
      title: "Poświadczenia treści (C2PA) obecne",
      explanation: `Utworzone przez: ${a.generator}. Sprawdzenie odcisku: ${a.hashMatches === null ? "niemożliwe" : a.hashMatches ? "zgodny" : "niezgodny"}. Podpis jest obecny, ale nie został sprawdzony względem listy zaufanych wystawców.`,
    },
  }),
  none: {
    en: {
      title: "No provenance data",
      explanation:
        "The file carries no content credentials (C2PA) and no declaration of how it was made. This is normal for most photos and says nothing either way.",
    },
    de: {
      title: "Keine Herkunftsdaten",
      explanation:
        "Die Datei enthält keinen Herkunftsnachweis (C2PA) und keine Angabe zur Entstehung. Das ist bei den meisten Fotos normal und spricht weder dafür noch dagegen.",
    },
    pl: {
      title: "Brak danych o pochodzeniu",
      explanation:
        "Plik nie zawiera poświadczeń treści (C2PA) ani informacji o sposobie powstania. To normalne dla większości zdjęć i nie przesądza niczego.",
    },
  } as FindingText,
};

function c2paFindings(c2pa: C2paSummary, ctx: ScanContext, out: Finding[]): void {
  const evidence = { ...c2pa };
  const aiAction = c2pa.actions.find((a) => a.digitalSourceType && AI_SOURCE_TYPES.test(a.digitalSourceType));
  if (aiAction)
    out.push(
      finding(
        ctx.language,
        "PROV_AI_GENERATED",
        "Red",
        texts.ai(`C2PA ${aiAction.action}: ${aiAction.digitalSourceType?.split("/").pop()}`),
        evidence,
      ),
    );
  if (c2pa.hashMatches === false)
    out.push(finding(ctx.language, "PROV_C2PA_HASH_MISMATCH", "Red", texts.hashMismatch, evidence));
  const edits = c2pa.actions.filter((a) => EDIT_ACTIONS.test(a.action));
  if (edits.length)
    out.push(
      finding(
        ctx.language,
        "PROV_C2PA_EDITED",
        "Yellow",
        texts.edited(
          edits.map((a) => a.action.replace("c2pa.", "") + (a.softwareAgent ? ` (${a.softwareAgent})` : "")).join(", "),
        ),
        evidence,
      ),
    );
  out.push(
    finding(
      ctx.language,
      "PROV_C2PA_PRESENT",
      "Green",
      texts.present({ generator: c2pa.claimGenerator ?? "?", hashMatches: c2pa.hashMatches }),
      evidence,
    ),
  );
}

export const provenanceAnalyzer: Analyzer = {
  id: "provenance",
  version: "1.0.0",
  // Content credentials live in the file as sent; a PNG decoded from a TIFF or HEIC has none of its own.
  appliesTo: (file: ScanFile) => (file.kind === "jpeg" || file.kind === "png") && !file.decodedFrom,
  async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
    const findings: Finding[] = [];
    const c2pa = await readC2pa(file.bytes);
    if (c2pa) c2paFindings(c2pa, ctx, findings);
    const sourceTypes = digitalSourceTypes(file.bytes);
    const aiType = sourceTypes.find((t) => AI_SOURCE_TYPES.test(t));
    if (aiType && !findings.some((f) => f.code === "PROV_AI_GENERATED"))
      findings.push(
        finding(ctx.language, "PROV_AI_GENERATED", "Red", texts.ai(`DigitalSourceType ${aiType.split("/").pop()}`), {
          digitalSourceType: aiType,
        }),
      );
    const pngKeys = isPng(file.bytes) ? Object.keys(pngText(file.bytes)).filter((k) => AI_PNG_KEYS.includes(k)) : [];
    if (pngKeys.length && !findings.some((f) => f.code === "PROV_AI_GENERATED"))
      findings.push(
        finding(ctx.language, "PROV_AI_GENERATED", "Red", texts.ai(`PNG tEXt/iTXt ${pngKeys.join(", ")}`), {
          pngTextKeys: pngKeys,
        }),
      );
    if (!findings.length) findings.push(finding(ctx.language, "PROV_NONE", "Green", texts.none, {}));
    return {
      assessed: true,
      findings,
      metadata: {
        c2pa: c2pa
          ? {
              generator: c2pa.claimGenerator,
              actions: c2pa.actions.map((a) => a.action),
              hashMatches: c2pa.hashMatches,
            }
          : null,
        digitalSourceTypes: sourceTypes,
      },
    };
  },
};
