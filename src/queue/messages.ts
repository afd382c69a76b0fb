import { z } from "zod";

/** Every message on the JOBS queue (notifications; analyses never queue, DESIGN §19). One schema per type; add new types here. */
export const JobMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("notification"), outboxId: z.string() }),
]);

export type JobMessage = z.infer<typeof JobMessageSchema>;
