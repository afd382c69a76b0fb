import { lazily } from "../../lib/isolate-once";
import { Parts } from "../../lib/parts";
import type { Analyzer } from "../types";

/** An analyzer set, loaded when an analysis first runs it. */
export type AnalyzerSet = () => Promise<Analyzer[]>;

/**
 * The detectors (decoders, pdf.js glue, models, their texts) are most of the Worker's modules; they load
 * on an isolate's first analysis instead of with every request, page and test file.
 */
const registry = lazily(() => import("../forensics/registry"));

/**
 * The analyzer set a request runs (setting `ANALYZERS`): `all` in production — every detector except
 * the manipulation-localisation model, which is too weak to be worth its CPU (models/manipulation.md,
 * "Decision"); `all+manipulation-model` adds it back for evaluation; `file-type` runs only the cheap
 * gatekeeper (type, structure, hash: the no-op set for tests of request rules, which need real
 * per-file results but no forensics); `none` analyses nothing (every file `-`).
 */
export const analyzerSets = new Parts<AnalyzerSet>("ANALYZERS", {
  all: async () => (await registry()).defaultAnalyzers,
  "all+manipulation-model": async () => (await registry()).analyzers,
  "file-type": lazily(async () => [(await import("../forensics/file-type")).fileTypeAnalyzer]),
  none: async () => [],
});

/** `modelVersions` (spec 2.6): every analyzer of the set, with its learned model where it has one. */
export function modelVersions(analyzers: Analyzer[]): Record<string, string> {
  return Object.fromEntries(
    analyzers.map((a) => [
      a.id,
      a.model ? `${a.version}; ${a.model.name} ${a.model.version} (sha256 ${a.model.sha256})` : a.version,
    ]),
  );
}
