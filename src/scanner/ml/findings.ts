/** Plain-words findings of the learned detectors (de/en/pl), shared by both analyzers. */
import { finding, type FindingText } from "../finding";
import { ImageDataError } from "../images/rgba-band";
import type { Finding, Language, SuspicionLevel } from "../types";
import type { OpenedImage } from "./open-image";

/** Prefix of a learned detector's `-` codes (`RECAPTURE_NOT_ASSESSED`, `MANIPULATION_MODEL_FAILED`, …). */
export type ModelCodePrefix = "RECAPTURE" | "MANIPULATION";

const notOpened: Record<Exclude<OpenedImage, { ok: true }>["reason"], FindingText> = {
  unsupported: {
    de: {
      title: "Format vom Modell nicht unterstützt",
      explanation: "Das gelernte Modell prüft nur JPEG- und PNG-Bilder; diese Datei wurde von ihm nicht geprüft.",
    },
    en: {
      title: "Format not supported by the model",
      explanation: "The learned model only checks JPEG and PNG images; it did not check this file.",
    },
    pl: {
      title: "Format nieobsługiwany przez model",
      explanation: "Wyuczony model sprawdza tylko obrazy JPEG i PNG; ten plik nie został przez niego sprawdzony.",
    },
  },
  "no-dimensions": {
    de: {
      title: "Bildgröße nicht lesbar",
      explanation:
        "Der Dateikopf nennt keine gültige Bildgröße (beschädigte Datei). Das Bild wurde dem Modell nicht übergeben.",
    },
    en: {
      title: "Image size unreadable",
      explanation: "The file header gives no valid image size (damaged file). The image was not passed to the model.",
    },
    pl: {
      title: "Nie można odczytać rozmiaru obrazu",
      explanation:
        "Nagłówek pliku nie podaje prawidłowego rozmiaru obrazu (uszkodzony plik). Obraz nie został przekazany modelowi.",
    },
  },
  "too-large": {
    de: {
      title: "Bild zu groß für das Modell",
      explanation:
        "Das Bild hat mehr Pixel, als im Speicherbudget dekodiert werden können; das Modell hat es nicht geprüft.",
    },
    en: {
      title: "Image too large for the model",
      explanation:
        "The image has more pixels than can be decoded within the memory budget; the model did not check it.",
    },
    pl: {
      title: "Obraz zbyt duży dla modelu",
      explanation: "Obraz ma więcej pikseli, niż można zdekodować w budżecie pamięci; model go nie sprawdził.",
    },
  },
  undecodable: {
    de: {
      title: "Bild nicht dekodierbar",
      explanation:
        "Die Bilddaten lassen sich nicht vollständig dekodieren (beschädigt oder nicht unterstützte Variante). Das Modell hat das Bild nicht geprüft.",
    },
    en: {
      title: "Image cannot be decoded",
      explanation:
        "The image data cannot be fully decoded (damaged or an unsupported variant). The model did not check the image.",
    },
    pl: {
      title: "Nie można zdekodować obrazu",
      explanation:
        "Nie można w pełni zdekodować danych obrazu (uszkodzone lub nieobsługiwany wariant). Model nie sprawdził obrazu.",
    },
  },
};

export function notOpenedFinding(
  language: Language,
  code: ModelCodePrefix,
  opened: Exclude<OpenedImage, { ok: true }>,
): Finding {
  return finding(language, `${code}_NOT_ASSESSED`, "-", notOpened[opened.reason], {
    reason: opened.reason,
    width: opened.width,
    height: opened.height,
  });
}

/**
 * A streamed image is decoded while the model reads it, so damaged data surfaces as an ImageDataError
 * during detection: that is the `undecodable` outcome, not a model failure.
 */
export function detectionFailedFinding(
  language: Language,
  code: ModelCodePrefix,
  model: string,
  error: unknown,
  size: { width: number; height: number },
): Finding {
  if (error instanceof ImageDataError)
    return notOpenedFinding(language, code, { ok: false, reason: "undecodable", ...size });
  return modelFailedFinding(language, code, model, error);
}

export function modelFailedFinding(language: Language, code: ModelCodePrefix, model: string, error: unknown): Finding {
  return finding(
    language,
    `${code}_MODEL_FAILED`,
    "-",
    {
      de: {
        title: "Modell nicht ausführbar",
        explanation: `Das gelernte Modell ${model} konnte nicht ausgeführt werden; diese Prüfung fehlt für das Bild. Die übrigen Prüfungen sind davon nicht betroffen.`,
      },
      en: {
        title: "Model could not run",
        explanation: `The learned model ${model} could not be run; this check is missing for the image. The other checks are not affected.`,
      },
      pl: {
        title: "Nie można uruchomić modelu",
        explanation: `Nie można było uruchomić wyuczonego modelu ${model}; tej kontroli brakuje dla obrazu. Pozostałe kontrole nie są tym objęte.`,
      },
    },
    { model, error: error instanceof Error ? error.message : String(error) },
  );
}

export function tooSmallFinding(
  language: Language,
  code: ModelCodePrefix,
  width: number,
  height: number,
  minimum: number,
): Finding {
  return finding(
    language,
    `${code}_NOT_ASSESSED`,
    "-",
    {
      de: {
        title: "Bild zu klein für das Modell",
        explanation: `Das Bild (${width} × ${height}) ist kleiner als die ${minimum} Pixel, die das Modell mindestens braucht.`,
      },
      en: {
        title: "Image too small for the model",
        explanation: `The image (${width} × ${height}) is smaller than the ${minimum} pixels the model needs at least.`,
      },
      pl: {
        title: "Obraz zbyt mały dla modelu",
        explanation: `Obraz (${width} × ${height}) jest mniejszy niż minimalne ${minimum} pikseli wymagane przez model.`,
      },
    },
    { reason: "too-small", width, height },
  );
}

/** Level from a calibrated probability: at or above `red` → Red, `yellow` → Yellow, else Green. */
export function levelFor(probability: number, thresholds: { yellow: number; red: number }): SuspicionLevel {
  if (probability >= thresholds.red) return "Red";
  if (probability >= thresholds.yellow) return "Yellow";
  return "Green";
}
