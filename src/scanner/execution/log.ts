/** One structured log line per analysis event (JSON, so Workers Logs can filter by id and outcome). */
export function logAnalysis(event: string, fields: Record<string, unknown>): void {
  console.log(JSON.stringify({ event: `analysis.${event}`, ...fields }));
}
