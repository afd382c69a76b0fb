import { describe, expect, it } from "vitest";
import { checkReason, REASON_CODES, reasonText } from "../../src/capture/checks/reason-texts";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("a photo check's reason reads in the board's language", () => {
  it("keeps the English text as the record and fills the values in every language", () => {
    const reason = checkReason("impossible_move", { km: 412, minutes: 3 });
    expect(reason).toEqual({
      code: "impossible_move",
      params: { km: 412, minutes: 3 },
      message: "Between two shots the position jumped 412 km in 3 min.",
    });
    expect(reasonText("de", reason)).toBe("Zwischen zwei Aufnahmen sprang der Standort um 412 km in 3 min.");
    expect(reasonText("pl", reason)).toBe("Między dwoma zdjęciami położenie przeskoczyło o 412 km w 3 min.");
  });

  it("every language has every reason with the same values, and none is left unfilled", () => {
    expect(REASON_CODES).toHaveLength(23);
    for (const code of REASON_CODES) {
      const english = checkReason(code, {
        label: "L",
        width: 1,
        height: 2,
        trackWidth: 3,
        trackHeight: 4,
        data: "XMP",
        peaks: 9,
        km: 5,
        minutes: 6,
        percent: 97,
      });
      for (const language of ["de", "en", "pl"] as const) {
        const text = reasonText(language, english);
        expect(placeholders(text), `${code} ${language}`).toEqual([]);
        if (language !== "en") expect(text, `${code} ${language}`).not.toBe(english.message);
      }
    }
  });

  it("a record stored before reasons carried values, or with a code it does not know, keeps its English text", () => {
    const old = {
      code: "far_from_network",
      message: "The phone reports a position 80 km from where its internet connection is located.",
    };
    expect(reasonText("de", old)).toBe(old.message);
    expect(reasonText("de", { code: "later_check", message: "Something new." })).toBe("Something new.");
    expect(reasonText("de", { ...old, params: { km: 80 } })).toContain("80 km von dem Ort entfernt");
  });
});
