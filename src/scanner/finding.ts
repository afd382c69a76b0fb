import type { FindingCode } from "./finding-codes";
import type { Finding, Language, SuspicionLevel } from "./types";

/** Title and explanation of a finding in each supported language. */
export type FindingText = Record<Language, { title: string; explanation: string }>;

/** Builds a finding in the request's language; evidence stays language-neutral. */
export function finding(
  language: Language,
  code: FindingCode,
  level: SuspicionLevel,
  text: FindingText,
  evidence: Record<string, unknown> = {},
): Finding {
  return { code, level, ...text[language], evidence };
}

/** The highest of the given levels ("-" when there are none). */
export function highestLevel(levels: Iterable<SuspicionLevel>): SuspicionLevel {
  const order: SuspicionLevel[] = ["-", "Green", "Yellow", "Red"];
  let best: SuspicionLevel = "-";
  for (const level of levels) if (order.indexOf(level) > order.indexOf(best)) best = level;
  return best;
}
