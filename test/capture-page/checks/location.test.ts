import { describe, expect, it } from "vitest";
import { checkLocation, distanceKm, type Position } from "../../../src/capture/checks/location";

// Positions from the EXIF GPS of shared/data photos (MANIFEST.md): Leuven (leuvenA/B) and the
// Brazil pair (ela_original/modified), plus an accuracy and a time as a browser reports them.
const LEUVEN: Position = { latitude: 50.8715, longitude: 4.697, accuracy: 15, timestamp: 1_700_000_000_000 };
const SAO_PAULO: Position = { latitude: -23.5226, longitude: -47.5045, accuracy: 20, timestamp: 1_700_000_060_000 };
const BRUSSELS_NET = { latitude: 50.8503, longitude: 4.3517, country: "BE" };
const codes = (r: ReturnType<typeof checkLocation>) => r.reasons.map((x) => x.code);

describe("location: no position is unknown, not a pass", () => {
  it("says the policyholder shared none", () => {
    expect(checkLocation(null, BRUSSELS_NET, [])).toMatchObject({
      status: "unknown",
      reasons: [{ code: "no_position" }],
    });
  });
});

describe("location: plausible positions pass", () => {
  it("Leuven seen from a Brussels connection (24 km)", () => {
    expect(distanceKm(LEUVEN, BRUSSELS_NET)).toBeCloseTo(24.4, 0);
    expect(checkLocation(LEUVEN, BRUSSELS_NET, [])).toMatchObject({
      status: "pass",
      evidence: { networkDistanceKm: 24 },
    });
  });

  it("without a network location (local dev, tests) only the other checks apply", () => {
    expect(
      checkLocation(LEUVEN, null, [{ ...LEUVEN, latitude: 50.872, timestamp: LEUVEN.timestamp - 30_000 }]),
    ).toMatchObject({ status: "pass", evidence: { network: "unavailable" } });
  });
});

describe("location: implausible positions fail", () => {
  it("a phone in Brazil on a Belgian connection", () => {
    expect(codes(checkLocation(SAO_PAULO, BRUSSELS_NET, []))).toEqual(["far_from_network"]);
  });

  it("a jump from Leuven to Brazil within a minute between two shots", () => {
    expect(codes(checkLocation(SAO_PAULO, null, [LEUVEN]))).toEqual(["impossible_move"]);
  });

  it("spoofed-looking fixes: null island, perfect accuracy, whole degrees", () => {
    expect(codes(checkLocation({ latitude: 0, longitude: 0, accuracy: 10, timestamp: 0 }, null, []))).toEqual([
      "null_island",
    ]);
    expect(codes(checkLocation({ ...LEUVEN, accuracy: 0 }, null, []))).toEqual(["perfect_accuracy"]);
    expect(codes(checkLocation({ ...LEUVEN, latitude: 50, longitude: 4 }, null, []))).toEqual(["round_coordinates"]);
  });
});
