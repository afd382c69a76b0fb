import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { limits, SettingsError } from "../../src/env";

describe("settings are parsed and checked once (DESIGN §8)", () => {
  it("reads the numeric vars as numbers", () => {
    expect(limits(env)).toMatchObject({
      analysisTimeoutS: 120,
      fileTimeoutS: 90,
      analysisUnitConcurrency: 3,
      directUploadMaxBytes: 10485760,
    });
  });

  it("a missing or misspelt var fails with its name instead of becoming NaN", () => {
    const broken = { ...env, ANALYSIS_TIMEOUT_S: undefined, DIRECT_UPLOAD_MAX_BYTES: "10 MB" } as unknown as typeof env;
    expect(() => limits(broken)).toThrow(SettingsError);
    expect(() => limits(broken)).toThrow(/ANALYSIS_TIMEOUT_S.*DIRECT_UPLOAD_MAX_BYTES/);
  });
});
