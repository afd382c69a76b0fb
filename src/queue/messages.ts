import { z } from "zod";

/** Every message on the JOBS queue. One schema per type; add new types here. */
export const JobMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("notification"), outboxId: z.string() }),
  // One file-verification run, started by its AnalysisGate (src/scanner/analysis-queue.ts).
  z.object({ type: z.literal("analysis"), digest: z.string(), analysisId: z.string() }),
]);

export type JobMessage = z.infer<typeof JobMessageSchema>;
