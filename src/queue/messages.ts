import { z } from "zod";

/** Every message on the JOBS queue (notifications, result pushes; analyses never queue, DESIGN §19). One schema per type; add new types here. */
export const JobMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("notification"), outboxId: z.string() }),
  /** Attempt `attempt` (1-based) of a result push (DESIGN §14, src/capture/push/). */
  z.object({ type: z.literal("push"), deliveryId: z.string(), attempt: z.number().int().positive() }),
]);

export type JobMessage = z.infer<typeof JobMessageSchema>;
