import { expect } from "vitest";
import { FINDING_CODE_PATTERN, type FindingCodeInfo, findingCodes } from "../../src/scanner/finding-codes";
import type { SuspicionLevel } from "../../src/scanner/types";

/**
 * Every finding is one the registry (src/scanner/finding-codes.ts) lists, in the UPPER_SNAKE form,
 * at one of the levels the registry names for it: the registry /openapi.json and docs/forensics.md
 * show stays true for what the detectors really emit.
 */
export function expectRegisteredFindings(findings: readonly { code: string; level: string }[]): void {
  const registry: Record<string, FindingCodeInfo> = findingCodes;
  for (const f of findings) {
    expect(f.code, "finding code in UPPER_SNAKE").toMatch(FINDING_CODE_PATTERN);
    expect(registry, `${f.code} is in src/scanner/finding-codes.ts`).toHaveProperty(f.code);
    expect(registry[f.code].levels, `${f.code} at level ${f.level}: add the level to the registry`).toContain(
      f.level as SuspicionLevel,
    );
  }
}
