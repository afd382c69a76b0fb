import { analyzers } from "../../src/scanner/forensics/registry";
import type { Analyzer } from "../../src/scanner/types";

/** Files whose content starts with this marker make the test analyzer sleep. */
export const SLOW_MARKER = "SLOW-ANALYZER:";

/**
 * A deliberately slow analyzer for the gate tests. In the Workers pool the test, the Worker and
 * its Durable Objects share one isolate and one module graph, so pushing into the registry here
 * is what the AnalysisGate's pipeline runs. It applies only to marker files (content
 * `SLOW-ANALYZER:<ms>`), so other tests are unaffected even if they shared the isolate.
 */
export const slowAnalyzer: Analyzer = {
  id: "test-slow",
  version: "0.0.0",
  appliesTo: (file) => new TextDecoder().decode(file.bytes.subarray(0, SLOW_MARKER.length)) === SLOW_MARKER,
  async analyze(file) {
    const ms = Number(new TextDecoder().decode(file.bytes.subarray(SLOW_MARKER.length)));
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { assessed: false, findings: [] };
  },
};

export function slowFile(ms: number): Uint8Array {
  return new TextEncoder().encode(`${SLOW_MARKER}${ms}`);
}

/** Registers an analyzer first in the registry for the duration of a test file. */
export function registerFirst(analyzer: Analyzer): () => void {
  analyzers.unshift(analyzer);
  return () => {
    const at = analyzers.indexOf(analyzer);
    if (at >= 0) analyzers.splice(at, 1);
  };
}
