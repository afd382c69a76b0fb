/** The one clock of the service. Tests move time with `clock.set()`; production never does. */
let offsetMs = 0;

export const clock = {
  now(): Date {
    return new Date(Date.now() + offsetMs);
  },
  nowMs(): number {
    return Date.now() + offsetMs;
  },
  /** Shift the service's notion of "now" (tests only). */
  advance(ms: number): void {
    offsetMs += ms;
  },
  reset(): void {
    offsetMs = 0;
  },
};

/** ISO 8601 with an explicit offset (UTC, "+00:00"), as the spec's date-time fields require. */
export function isoWithOffset(date: Date | number | null | undefined): string | null {
  if (date === null || date === undefined) return null;
  return new Date(date).toISOString().replace("Z", "+00:00");
}
