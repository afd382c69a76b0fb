import type { Finding, Language } from "../types";
import { t } from "./i18n";
import { colors, type PageFlow } from "./layout";
import { evidenceText, levelColors } from "./report-input";

/** How much of a finding's evidence both reports print. */
export interface FindingDetail {
  size: number;
  entries: number;
  valueChars: number;
}

/**
 * One finding as both reports print it: level square and name, title, explanation, then the evidence
 * (`key = value · …`, cut to `detail`). It stays on one page unless it is longer than a third of one.
 */
export function drawFinding(flow: PageFlow, language: Language, finding: Finding, detail: FindingDetail): void {
  const words = t(language);
  const explanation = { size: detail.size - 0.5, indent: 15, after: 2 };
  const evidenceStyle = { size: 7.5, indent: 15, color: colors.muted, after: 4 };
  const entries = Object.entries(finding.evidence ?? {}).slice(0, detail.entries);
  const evidence = entries.length
    ? `${words.evidence}: ${entries.map(([k, v]) => `${k} = ${evidenceText(v, detail.valueChars)}`).join(" · ")}`
    : "";
  const height =
    detail.size * 1.4 +
    4 +
    flow.textHeight(finding.explanation, explanation) +
    flow.textHeight(evidence, evidenceStyle);
  flow.ensure(Math.min(height, 240));
  flow.badge(levelColors[finding.level], words.levels[finding.level].name, finding.title, detail.size);
  flow.text(finding.explanation, explanation);
  if (evidence) flow.text(evidence, evidenceStyle);
}
