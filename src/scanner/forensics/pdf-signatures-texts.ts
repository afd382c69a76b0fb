import type { FindingText } from "../finding";
import type { Language } from "../types";
import type { ObjectChange, UsedBy } from "../pdf/changes";
import type { DocMdpLevel } from "../pdf/signatures";

type Words = Record<Language, string>;

/** A name in the language's quotation marks. */
const quote = (lang: Language, name: string) =>
  lang === "de" ? `„${name}“` : lang === "pl" ? `„${name}”` : `“${name}”`;

/** What a changed object is, in each language (named in the explanation together with its object number). */
const KIND: Record<ObjectChange["kind"], Words> = {
  content: { de: "Seiteninhalt", en: "page content", pl: "treść strony" },
  page: { de: "Seiteneinträge", en: "page entries", pl: "wpisy strony" },
  pages: {
    de: "Seitenbaum (Seiten hinzugefügt, entfernt oder umsortiert)",
    en: "page tree (pages added, removed or reordered)",
    pl: "drzewo stron (strony dodane, usunięte lub przestawione)",
  },
  catalog: { de: "Dokumentkatalog", en: "document catalog", pl: "katalog dokumentu" },
  trailer: {
    de: "Trailer der Datei (Verweis auf Katalog oder weitere Objekte)",
    en: "file trailer (pointer to the catalog or other objects)",
    pl: "trailer pliku (wskazanie katalogu lub innych obiektów)",
  },
  xref: {
    de: "Querverweistabelle (xref: wo ein Objekt steht)",
    en: "cross-reference table (xref: where an object is)",
    pl: "tablica odsyłaczy (xref: gdzie znajduje się obiekt)",
  },
  info: { de: "Dokumentinformationen", en: "document info", pl: "informacje o dokumencie" },
  signature: { de: "Signaturwert", en: "signature value", pl: "wartość podpisu" },
  annotation: { de: "Anmerkung", en: "annotation", pl: "adnotacja" },
  "form-field": { de: "Formularfeld", en: "form field", pl: "pole formularza" },
  image: { de: "Bild", en: "image", pl: "obraz" },
  xobject: {
    de: "Formobjekt bzw. Erscheinungsbild",
    en: "form object or appearance stream",
    pl: "obiekt formularza lub wygląd pola",
  },
  font: { de: "Schriftdaten", en: "font data", pl: "dane czcionki" },
  metadata: { de: "XMP-Metadaten", en: "XMP metadata", pl: "metadane XMP" },
  security: { de: "Prüfdaten (DSS)", en: "validation data (DSS)", pl: "dane weryfikacyjne (DSS)" },
  other: { de: "sonstiges Objekt", en: "other object", pl: "inny obiekt" },
};

const OBJECT: Words = { de: "Objekt", en: "object", pl: "obiekt" };
/** "also used by …": where else a changed object is used, in each language. */
const USED_BY: Record<UsedBy["where"], (name: string) => Words> = {
  trailer: (n) => ({
    de: `auch vom Trailer-Eintrag /${n} verwendet`,
    en: `also used by the trailer entry /${n}`,
    pl: `używany także przez wpis trailera /${n}`,
  }),
  catalog: (n) => ({
    de: `auch vom Katalogeintrag /${n} verwendet`,
    en: `also used by the catalog entry /${n}`,
    pl: `używany także przez wpis katalogu /${n}`,
  }),
  form: (n) => ({
    de: `auch vom Formulareintrag /${n} verwendet`,
    en: `also used by the form entry /${n}`,
    pl: `używany także przez wpis formularza /${n}`,
  }),
  page: (n) => ({
    de: `auch von Seite ${n} verwendet`,
    en: `also used by page ${n}`,
    pl: `używany także przez stronę ${n}`,
  }),
  field: (n) => ({
    de: `auch vom unveränderten Feld ${quote("de", n)} verwendet`,
    en: `also used by the unchanged field ${quote("en", n)}`,
    pl: `używany także przez niezmienione pole ${quote("pl", n)}`,
  }),
  signature: () => ({
    de: "gehört zu einem früheren Signaturwert",
    en: "belongs to an earlier signature value",
    pl: "należy do wcześniejszej wartości podpisu",
  }),
  unused: () => ({
    de: "wurde von der signierten Fassung nicht verwendet und nachträglich wiederbelebt",
    en: "was not used by the signed version and was brought back",
    pl: "nie był używany w podpisanej wersji i został przywrócony",
  }),
  deep: () => ({
    de: "hängt an einer zu tiefen Kette von Objekten",
    en: "hangs on a chain of objects too deep to follow",
    pl: "zależy od zbyt głębokiego łańcucha obiektów",
  }),
};

/** "page content (object 5 0 R)", "form field „Name“ (object 7 0 R)" … in the request's language. */
export function describeChanges(lang: Language, changes: ObjectChange[]): string {
  const parts = changes.slice(0, 8).map((c) => {
    const field = c.field ? ` ${quote(lang, c.field)}` : "";
    const object = c.ref === "trailer" ? "" : ` (${OBJECT[lang]} ${c.ref})`;
    const shared = c.usedBy ? `, ${USED_BY[c.usedBy.where](c.usedBy.name)[lang]}` : "";
    return `${KIND[c.kind][lang]}${field}${object}${shared}`;
  });
  const more = changes.length > 8 ? ` (+${changes.length - 8})` : "";
  return [...new Set(parts)].join("; ") + more;
}

const PERMISSION: Record<DocMdpLevel | "approval", Words> = {
  1: {
    de: "Die Zertifizierungssignatur erlaubt keine Änderungen (DocMDP P=1, nur Prüfdaten und Zeitstempel).",
    en: "The certification signature allows no changes (DocMDP P=1, only validation data and timestamps).",
    pl: "Podpis certyfikujący nie zezwala na zmiany (DocMDP P=1, tylko dane weryfikacyjne i znaczniki czasu).",
  },
  2: {
    de: "Die Zertifizierungssignatur erlaubt nur Ausfüllen und Unterschreiben (DocMDP P=2).",
    en: "The certification signature allows only filling in and signing (DocMDP P=2).",
    pl: "Podpis certyfikujący zezwala tylko na wypełnianie i podpisywanie (DocMDP P=2).",
  },
  3: {
    de: "Die Zertifizierungssignatur erlaubt Ausfüllen, Unterschreiben und Kommentare (DocMDP P=3).",
    en: "The certification signature allows filling in, signing and comments (DocMDP P=3).",
    pl: "Podpis certyfikujący zezwala na wypełnianie, podpisywanie i komentarze (DocMDP P=3).",
  },
  approval: {
    de: "Erlaubt sind nach einer Signatur nur Formulareinträge in nicht gesperrte Felder, weitere Signaturen, Prüfdaten und Kommentare.",
    en: "After a signature only entries in fields it does not lock, further signatures, validation data and comments are allowed.",
    pl: "Po podpisie dozwolone są tylko wpisy w pola, których podpis nie blokuje, kolejne podpisy, dane weryfikacyjne i komentarze.",
  },
};

export function permissionText(lang: Language, docMdp: DocMdpLevel | null): string {
  return PERMISSION[docMdp ?? "approval"][lang];
}

/** Red: what changed after which signature, in which revision, and why that is not allowed. */
export function changedAfterText(
  revision: number,
  signatures: string[],
  changes: ObjectChange[],
  docMdp: DocMdpLevel | null,
): FindingText {
  const sigs = (lang: Language) => signatures.map((s) => quote(lang, s)).join(", ");
  return {
    de: {
      title: "Nach der Unterschrift unerlaubt geändert",
      explanation: `Fassung ${revision} ändert die Datei nach der Signatur ${sigs("de")} auf eine Weise, die die Signatur nicht erlaubt: ${describeChanges("de", changes)}. ${permissionText("de", docMdp)} Die Signatur gilt nur für die frühere Fassung.`,
    },
    en: {
      title: "Changed after signing in a way the signature does not allow",
      explanation: `Version ${revision} changes the file after signature ${sigs("en")} in a way the signature does not allow: ${describeChanges("en", changes)}. ${permissionText("en", docMdp)} The signature only vouches for the earlier version.`,
    },
    pl: {
      title: "Zmieniony po podpisaniu w niedozwolony sposób",
      explanation: `Wersja ${revision} zmienia plik po podpisie ${sigs("pl")} w sposób, na który podpis nie zezwala: ${describeChanges("pl", changes)}. ${permissionText("pl", docMdp)} Podpis obejmuje tylko wcześniejszą wersję.`,
    },
  };
}

/** Green: what was added after signing and why that is allowed. */
export function allowedAfterText(
  revisions: number[],
  changes: ObjectChange[],
  docMdp: DocMdpLevel | null,
): FindingText {
  const kinds = (lang: Language) => [...new Set(changes.map((c) => KIND[c.kind][lang]))].slice(0, 8).join(", ");
  const list = revisions.join(", ");
  const one = revisions.length === 1;
  return {
    de: {
      title: "Nach der Unterschrift nur erlaubte Ergänzungen",
      explanation: `${one ? "Fassung" : "Die Fassungen"} ${list} nach der Signatur ${one ? "ändert" : "ändern"} nur, was die Signatur zulässt (${kinds("de") || "keine inhaltlichen Objekte"}); der unterschriebene Seiteninhalt ist unverändert. ${permissionText("de", docMdp)}`,
    },
    en: {
      title: "Only allowed additions after signing",
      explanation: `${one ? "Version" : "Versions"} ${list} after the signature ${one ? "changes" : "change"} only what the signature permits (${kinds("en") || "no content objects"}); the signed page content is unchanged. ${permissionText("en", docMdp)}`,
    },
    pl: {
      title: "Po podpisaniu tylko dozwolone uzupełnienia",
      explanation: `${one ? "Wersja" : "Wersje"} ${list} po podpisie ${one ? "zmienia" : "zmieniają"} tylko to, na co podpis zezwala (${kinds("pl") || "brak obiektów treści"}); podpisana treść stron jest niezmieniona. ${permissionText("pl", docMdp)}`,
    },
  };
}

/** Coverage problems of one /ByteRange, by kind. */
export const coverageTexts = {
  gap: {
    de: {
      title: "Unsignierte Bereiche in der Signatur",
      explanation:
        "Der von der Signatur abgedeckte Bereich (ByteRange) beginnt nicht am Dateianfang oder lässt mehr aus als nur den eigenen Signaturwert. Inhalte dort sind nicht unterschrieben.",
    },
    en: {
      title: "Unsigned regions inside the signature",
      explanation:
        "The range the signature covers (ByteRange) does not start at the beginning of the file or leaves out more than its own signature value. Content there is not signed.",
    },
    pl: {
      title: "Niepodpisane obszary w podpisie",
      explanation:
        "Zakres objęty podpisem (ByteRange) nie zaczyna się na początku pliku lub pomija więcej niż własną wartość podpisu. Treść w tym miejscu nie jest podpisana.",
    },
  },
  tail: {
    de: {
      title: "Ende der Datei nicht unterschrieben",
      explanation:
        "Der signierte Bereich endet vor dem Ende der gespeicherten Fassung, oder nach der letzten Fassung folgen Daten: dieser Teil der Datei ist von keiner Signatur gedeckt und keine erkennbare Änderung.",
    },
    en: {
      title: "End of the file not signed",
      explanation:
        "The signed range stops before the end of the saved version, or data follows the last version: that part of the file is covered by no signature and is no recognisable update.",
    },
    pl: {
      title: "Koniec pliku niepodpisany",
      explanation:
        "Podpisany zakres kończy się przed końcem zapisanej wersji lub po ostatniej wersji następują dane: ta część pliku nie jest objęta żadnym podpisem i nie jest rozpoznawalną aktualizacją.",
    },
  },
  invalid: {
    de: {
      title: "Ungewöhnlicher signierter Bereich",
      explanation:
        "Die Angabe des signierten Bereichs (ByteRange) hat nicht die übliche Form aus genau zwei Abschnitten um den Signaturwert, ist fehlerhaft oder reicht über das Dateiende hinaus: was unterschrieben ist, bleibt unklar.",
    },
    en: {
      title: "Non-standard signed range",
      explanation:
        "The signed range (ByteRange) is not the usual two parts around the signature value, is malformed or reaches past the end of the file: what is signed remains unclear.",
    },
    pl: {
      title: "Niestandardowy zakres podpisu",
      explanation:
        "Zakres podpisu (ByteRange) nie ma zwykłej postaci dwóch części wokół wartości podpisu, jest błędny lub wykracza poza koniec pliku: nie wiadomo, co jest podpisane.",
    },
  },
  empty: {
    de: {
      title: "Leere Signatur",
      explanation:
        "Das Signaturfeld enthält keinen Signaturwert (nur Nullen): die Datei sieht signiert aus, ist es aber nicht.",
    },
    en: {
      title: "Empty signature",
      explanation: "The signature holds no value (only zeros): the file looks signed but is not.",
    },
    pl: {
      title: "Pusty podpis",
      explanation: "Podpis nie zawiera wartości (same zera): plik wygląda na podpisany, ale nie jest.",
    },
  },
} satisfies Record<string, FindingText>;

export const signatureTexts = {
  unreadable: {
    de: { title: "Signaturen nicht lesbar", explanation: "Die Signaturen der Datei konnten nicht gelesen werden." },
    en: { title: "Signatures not readable", explanation: "The file's signatures could not be read." },
    pl: { title: "Podpisy nieczytelne", explanation: "Nie udało się odczytać podpisów pliku." },
  },
  unchanged: {
    de: {
      title: "Signiert und danach unverändert",
      explanation:
        "Die Datei ist digital signiert und wurde nach der letzten Signatur nicht mehr verändert. (Die kryptografische Gültigkeit des Zertifikats wird nicht geprüft.)",
    },
    en: {
      title: "Signed and unchanged since",
      explanation:
        "The file is digitally signed and was not changed after the last signature. (The certificate's cryptographic validity is not checked.)",
    },
    pl: {
      title: "Podpisany i od tego czasu niezmieniony",
      explanation:
        "Plik jest podpisany cyfrowo i nie zmieniono go po ostatnim podpisie. (Ważność kryptograficzna certyfikatu nie jest sprawdzana.)",
    },
  },
  notChecked: {
    de: {
      title: "Nicht alle Änderungen nach der Signatur geprüft",
      explanation:
        "Die Datei hat mehr oder größere Fassungen nach der Signatur, als hier verglichen werden können, oder eine Fassung ist so beschädigt, dass sie sich nicht vergleichen ließ; diese wurden nicht geprüft.",
    },
    en: {
      title: "Not all changes after signing checked",
      explanation:
        "The file has more or larger versions after the signature than can be compared here, or a version is too damaged to compare; those were not checked.",
    },
    pl: {
      title: "Nie sprawdzono wszystkich zmian po podpisie",
      explanation:
        "Plik ma po podpisie więcej lub większych wersji, niż można tu porównać, albo wersja jest zbyt uszkodzona do porównania; tych nie sprawdzono.",
    },
  },
} satisfies Record<string, FindingText>;
