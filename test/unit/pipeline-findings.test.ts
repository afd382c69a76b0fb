import { describe, expect, it } from "vitest";
import { analyzerFailed } from "../../src/scanner/analysis/pipeline-findings";

describe("a failed detector is named in the request's language", () => {
  it("the explanation uses the reports' name of the check; its id stays in the evidence", () => {
    const de = analyzerFailed("de", "noise");
    expect(de.explanation).toContain("Die Prüfung „Rauschanalyse“ konnte");
    expect(de.evidence).toEqual({ analyzer: "noise" });
    expect(analyzerFailed("pl", "noise").explanation).toContain("„Analiza szumu”");
    expect(analyzerFailed("en", "boom").explanation).toContain("The check “boom” could not be run");
  });
});
