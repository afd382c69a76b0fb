import type { FindingText } from "../finding";

/** Wording of the structure and metadata findings (de/en/pl). */
export const structureTexts = {
  unreadable: {
    de: {
      title: "PDF-Inhalt nicht lesbar",
      explanation:
        "Der Inhalt der PDF-Datei konnte nicht gelesen werden (beschädigt, passwortgeschützt oder zu groß); Struktur und Metadaten wurden nicht geprüft.",
    },
    en: {
      title: "PDF content not readable",
      explanation:
        "The PDF's content could not be read (damaged, password-protected or too large); structure and metadata were not checked.",
    },
    pl: {
      title: "Treść PDF nieczytelna",
      explanation:
        "Nie udało się odczytać treści PDF (uszkodzony, chroniony hasłem lub zbyt duży); struktury i metadanych nie sprawdzono.",
    },
  },
  tooComplex: {
    de: {
      title: "Seite zu umfangreich für die Prüfung",
      explanation:
        "Der Zeichnungsinhalt dieser Seiten überschreitet die Verarbeitungsgrenze; abgedeckte oder unsichtbare Texte wurden dort nicht gesucht.",
    },
    en: {
      title: "Page too large to examine",
      explanation:
        "The drawing content of these pages exceeds the processing limit; covered or invisible text was not searched for there.",
    },
    pl: {
      title: "Strona zbyt obszerna do sprawdzenia",
      explanation:
        "Treść graficzna tych stron przekracza limit przetwarzania; nie szukano tam zakrytego ani niewidocznego tekstu.",
    },
  },
  clean: {
    de: {
      title: "Struktur und Metadaten unauffällig",
      explanation:
        "Keine aktiven Inhalte, keine Bearbeitungsprogramme, stimmige Datumsangaben und keine verdeckten oder unsichtbaren Texte gefunden.",
    },
    en: {
      title: "Structure and metadata look normal",
      explanation: "No active content, no editing tools, consistent dates and no covered or invisible text found.",
    },
    pl: {
      title: "Struktura i metadane bez zastrzeżeń",
      explanation:
        "Brak aktywnej treści, narzędzi do edycji, daty są spójne i nie znaleziono zakrytego ani niewidocznego tekstu.",
    },
  },
  encrypted: {
    de: {
      title: "PDF ist verschlüsselt",
      explanation:
        "Die Datei ist verschlüsselt. Das ist bei Rechnungen unüblich und verhindert eine vollständige Prüfung mancher Inhalte.",
    },
    en: {
      title: "PDF is encrypted",
      explanation: "The file is encrypted. This is unusual for invoices and prevents a full check of some content.",
    },
    pl: {
      title: "PDF jest zaszyfrowany",
      explanation:
        "Plik jest zaszyfrowany. Jest to nietypowe dla faktur i uniemożliwia pełne sprawdzenie części treści.",
    },
  },
  javascript: {
    de: {
      title: "PDF enthält JavaScript",
      explanation:
        "Die Datei enthält Skripte, die beim Öffnen oder Bedienen ausgeführt werden können. Rechnungen und Belege brauchen das nicht.",
    },
    en: {
      title: "PDF contains JavaScript",
      explanation:
        "The file contains scripts that can run when it is opened or used. Invoices and receipts do not need them.",
    },
    pl: {
      title: "PDF zawiera JavaScript",
      explanation:
        "Plik zawiera skrypty, które mogą się uruchomić przy otwarciu lub obsłudze. Faktury i dowody ich nie potrzebują.",
    },
  },
  launch: {
    de: {
      title: "PDF startet Programme",
      explanation:
        "Die Datei enthält eine Launch-Aktion, die ein Programm oder eine Datei öffnen soll. Das ist gefährlich und bei Belegen nie nötig.",
    },
    en: {
      title: "PDF launches programs",
      explanation:
        "The file contains a Launch action meant to open a program or file. That is dangerous and never needed in a receipt.",
    },
    pl: {
      title: "PDF uruchamia programy",
      explanation:
        "Plik zawiera akcję Launch, która ma otworzyć program lub plik. To niebezpieczne i nigdy niepotrzebne w dokumencie.",
    },
  },
  xfa: {
    de: {
      title: "XFA-Formular",
      explanation:
        "Die Datei enthält ein XFA-Formular, dessen Anzeige vom Programm abhängt; Inhalte können je nach Betrachter verschieden aussehen.",
    },
    en: {
      title: "XFA form",
      explanation:
        "The file contains an XFA form whose display depends on the viewer; content may look different in different programs.",
    },
    pl: {
      title: "Formularz XFA",
      explanation:
        "Plik zawiera formularz XFA, którego wygląd zależy od przeglądarki; treść może wyglądać różnie w różnych programach.",
    },
  },
  eInvoice: {
    de: {
      title: "Eingebettete E-Rechnung",
      explanation:
        "Die Datei trägt die maschinenlesbare Rechnung (ZUGFeRD/Factur-X/XRechnung) als eingebettete XML-Datei. Das ist normal.",
    },
    en: {
      title: "Embedded e-invoice",
      explanation:
        "The file carries the machine-readable invoice (ZUGFeRD/Factur-X/XRechnung) as an embedded XML file. This is normal.",
    },
    pl: {
      title: "Osadzona e-faktura",
      explanation:
        "Plik zawiera fakturę w formie maszynowej (ZUGFeRD/Factur-X/XRechnung) jako osadzony plik XML. To normalne.",
    },
  },
  embeddedFiles: {
    de: {
      title: "Eingebettete Dateien",
      explanation: "Die PDF-Datei enthält angehängte Dateien, die beim Betrachten nicht zu sehen sind.",
    },
    en: {
      title: "Embedded files",
      explanation: "The PDF contains attached files that are not visible when viewing it.",
    },
    pl: { title: "Osadzone pliki", explanation: "PDF zawiera załączone pliki, niewidoczne podczas przeglądania." },
  },
  editor: {
    de: {
      title: "Mit einem PDF-Bearbeitungsprogramm bearbeitet",
      explanation:
        "Die Metadaten nennen ein Programm, mit dem bestehende PDF-Dateien geändert werden (Online-Editor oder PDF-Editor).",
    },
    en: {
      title: "Processed with a PDF editing tool",
      explanation: "The metadata names a program used to change existing PDFs (an online or desktop PDF editor).",
    },
    pl: {
      title: "Przetworzony edytorem PDF",
      explanation:
        "Metadane wskazują program służący do zmiany istniejących plików PDF (edytor online lub desktopowy).",
    },
  },
  modifiedLater: {
    de: {
      title: "Später geändert als erstellt",
      explanation:
        "Das Änderungsdatum liegt deutlich nach dem Erstellungsdatum: die Datei wurde nach ihrer Erstellung erneut gespeichert.",
    },
    en: {
      title: "Modified later than created",
      explanation: "The modification date is well after the creation date: the file was saved again after it was made.",
    },
    pl: {
      title: "Zmieniony później niż utworzony",
      explanation:
        "Data modyfikacji jest wyraźnie późniejsza niż data utworzenia: plik zapisano ponownie po jego utworzeniu.",
    },
  },
  afterIssue: {
    de: {
      title: "Nach dem Stichtag geändert",
      explanation: "Die Datei wurde nach dem angegebenen Datum (issueDate) erstellt oder geändert.",
    },
    en: {
      title: "Changed after the reference date",
      explanation: "The file was created or changed after the given date (issueDate).",
    },
    pl: {
      title: "Zmieniony po dacie odniesienia",
      explanation: "Plik utworzono lub zmieniono po podanej dacie (issueDate).",
    },
  },
  future: {
    de: {
      title: "Datum in der Zukunft",
      explanation:
        "Erstellungs- oder Änderungsdatum liegt in der Zukunft; die Uhr des Erstellers war falsch oder das Datum wurde gesetzt.",
    },
    en: {
      title: "Date in the future",
      explanation:
        "The creation or modification date lies in the future; the maker's clock was wrong or the date was set by hand.",
    },
    pl: {
      title: "Data w przyszłości",
      explanation:
        "Data utworzenia lub modyfikacji leży w przyszłości; zegar twórcy był błędny lub datę ustawiono ręcznie.",
    },
  },
  xmpMismatch: {
    de: {
      title: "Metadaten widersprechen sich",
      explanation:
        "Das Info-Verzeichnis und die XMP-Metadaten nennen verschiedene Änderungsdaten. Das entsteht, wenn ein Werkzeug nur einen Teil der Metadaten aktualisiert.",
    },
    en: {
      title: "Metadata disagree",
      explanation:
        "The Info dictionary and the XMP metadata give different modification dates. This happens when a tool updates only part of the metadata.",
    },
    pl: {
      title: "Metadane są sprzeczne",
      explanation:
        "Słownik Info i metadane XMP podają różne daty modyfikacji. Dzieje się tak, gdy narzędzie aktualizuje tylko część metadanych.",
    },
  },
  whiteBox: {
    de: {
      title: "Text mit weißer Fläche abgedeckt",
      explanation:
        "Auf der Seite liegt eine weiße Fläche über zuvor geschriebenem Text; der Text ist unsichtbar, aber noch in der Datei. So werden Beträge oder Namen überklebt.",
    },
    en: {
      title: "Text covered by a white box",
      explanation:
        "A white box is drawn over text written before it; the text is invisible but still in the file. This is how amounts or names are pasted over.",
    },
    pl: {
      title: "Tekst zakryty białym prostokątem",
      explanation:
        "Na stronie narysowano biały prostokąt na wcześniej zapisanym tekście; tekst jest niewidoczny, ale nadal w pliku. Tak zakleja się kwoty lub nazwiska.",
    },
  },
  whiteBoxOverwritten: {
    de: {
      title: "Text abgedeckt und überschrieben",
      explanation:
        "Ein Text wurde mit einer weißen Fläche abgedeckt und an derselben Stelle neu geschrieben. Das ist das typische Muster eines geänderten Betrags oder Namens.",
    },
    en: {
      title: "Text covered and written over",
      explanation:
        "Text was covered with a white box and new text was written in the same place. This is the typical pattern of a changed amount or name.",
    },
    pl: {
      title: "Tekst zakryty i nadpisany",
      explanation:
        "Tekst zakryto białym prostokątem i w tym samym miejscu wpisano nowy. To typowy wzór zmienionej kwoty lub nazwiska.",
    },
  },
  boxOverScan: {
    de: {
      title: "Weiße Fläche auf einem Scan",
      explanation:
        "Auf das eingescannte Seitenbild wurde nachträglich eine weiße Fläche gelegt; sie verdeckt einen Teil des Scans.",
    },
    en: {
      title: "White box on a scan",
      explanation: "A white box was drawn on top of the scanned page image afterwards; it hides part of the scan.",
    },
    pl: {
      title: "Biały prostokąt na skanie",
      explanation: "Na zeskanowany obraz strony nałożono później biały prostokąt; zakrywa on część skanu.",
    },
  },
  invisibleText: {
    de: {
      title: "Unsichtbarer Text",
      explanation:
        "Die Seite enthält Text, der nicht angezeigt wird (unsichtbarer Darstellungsmodus oder winzige Schrift). Er wird von Suchfunktionen und Maschinen gelesen, aber nicht von Menschen gesehen.",
    },
    en: {
      title: "Invisible text",
      explanation:
        "The page contains text that is not displayed (invisible rendering mode or tiny font). Search and machines read it, people do not see it.",
    },
    pl: {
      title: "Niewidoczny tekst",
      explanation:
        "Strona zawiera tekst, który nie jest wyświetlany (tryb niewidoczny lub mikroskopijna czcionka). Maszyny go czytają, ludzie go nie widzą.",
    },
  },
  textOnScan: {
    de: {
      title: "Sichtbarer Text auf einem Scan",
      explanation:
        "Die Seite ist ein eingescanntes Bild, auf das zusätzlich sichtbarer Text geschrieben wurde. Solcher Text kam nach dem Scannen hinzu.",
    },
    en: {
      title: "Visible text on a scan",
      explanation:
        "The page is a scanned image with visible text written on top of it. Such text was added after scanning.",
    },
    pl: {
      title: "Widoczny tekst na skanie",
      explanation:
        "Strona jest zeskanowanym obrazem, na którym dopisano widoczny tekst. Taki tekst dodano po zeskanowaniu.",
    },
  },
  oddFont: {
    de: {
      title: "Zahl in abweichender Schrift",
      explanation:
        "In einer Textzeile steht eine Zahl in einer Schriftart oder -größe, die sonst nirgends auf der Seite vorkommt. Nachträglich eingesetzte Beträge fallen so auf.",
    },
    en: {
      title: "Number in a different font",
      explanation:
        "A line contains a number in a font or size used nowhere else on the page. Amounts inserted afterwards stand out like this.",
    },
    pl: {
      title: "Liczba inną czcionką",
      explanation:
        "W wierszu tekstu jest liczba w czcionce lub rozmiarze, które nie występują nigdzie indziej na stronie. Tak wyróżniają się kwoty wstawione później.",
    },
  },
  repeatedSubset: {
    de: {
      title: "Schrift mehrfach eingebettet",
      explanation:
        "Dieselbe Schrift ist in mehreren getrennten Teilmengen eingebettet. Das entsteht, wenn Text in getrennten Arbeitsschritten (z. B. nachträglich) eingefügt wurde.",
    },
    en: {
      title: "Font embedded several times",
      explanation:
        "The same font is embedded as several separate subsets. This happens when text was added in separate steps (for example afterwards).",
    },
    pl: {
      title: "Czcionka osadzona kilka razy",
      explanation:
        "Ta sama czcionka jest osadzona jako kilka oddzielnych podzbiorów. Dzieje się tak, gdy tekst dodawano w osobnych krokach (np. później).",
    },
  },
} satisfies Record<string, FindingText>;
