import { analyzerSets } from "../../src/scanner/analysis/analyzer-sets";
import type { Analyzer } from "../../src/scanner/types";

/** Files whose content starts with this marker make the test analyzer sleep. */
export const SLOW_MARKER = "SLOW-ANALYZER:";

/**
 * A deliberately slow analyzer for the execution tests. It applies only to marker files (content
 * `SLOW-ANALYZER:<ms>`), so the real analyzers behave as always on every other file.
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

/**
 * Registers the analyzer set `name`: `analyzer` first, then the real set — the one way to swap a
 * part (src/lib/parts.ts). Requests select it with `ANALYZERS: name` in their bindings; in the
 * Workers pool the test, the Worker and its Durable Objects share one module graph, so the units see
 * it too. Returns its removal.
 */
export function addAnalyzerSet(name: string, analyzer: Analyzer): () => void {
  return analyzerSets.add(name, async () => [analyzer, ...(await analyzerSets.pick("all")())]);
}
