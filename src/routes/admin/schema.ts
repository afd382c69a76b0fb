import { z } from "@hono/zod-openapi";
import { communicationModes } from "../../db/schema";
import { featureNames } from "../../accounts/service";
import { isValidPushSecret } from "../../capture/push/signature";

const features = z
  .object(
    Object.fromEntries(featureNames.map((name) => [name, z.boolean().optional()])) as Record<
      (typeof featureNames)[number],
      z.ZodOptional<z.ZodBoolean>
    >,
  )
  .strict();

/** Result push target and its Standard Webhooks secret (DESIGN §14); where it may point is checked against the deployment's PUSH_TARGETS. */
const push = z
  .object({
    url: z.url({ protocol: /^https?$/ }),
    secret: z.string().max(200).refine(isValidPushSecret, "must be whsec_ followed by 24 to 64 random bytes in base64"),
  })
  .strict();

const reminders = z
  .object({
    firstAfterHours: z
      .number()
      .positive()
      .max(24 * 30),
    followupAfterHours: z
      .number()
      .positive()
      .max(24 * 30),
    maxReminders: z.number().int().min(0).max(10),
  })
  .strict();

export const AccountCreateSchema = z
  .object({
    name: z.string().min(1).max(200),
    communicationMode: z.enum(communicationModes),
    features: features.optional(),
    push: push.nullable().optional(),
    reminders: reminders.nullable().optional(),
    /** Language of the policyholder's e-mails (invitations, reminders). */
    language: z.enum(["de", "en", "pl"]).optional(),
    /** Days the perceptual hashes of the account's pictures are kept for reverse search (default 365). */
    hashRetentionDays: z.number().int().min(1).max(3650).optional(),
  })
  .strict()
  .openapi("AccountCreate");

export const AccountPatchSchema = AccountCreateSchema.partial().openapi("AccountPatch");

export const AccountCreatedSchema = z
  .object({ accountId: z.string(), apiKey: z.string().length(40) })
  .openapi("AccountCreated");

export const HandlerCreateSchema = z
  .object({ email: z.email(), password: z.string().min(10).max(200), name: z.string().min(1).max(200) })
  .strict()
  .openapi("HandlerCreate");

export const AccountIdParam = z.object({ id: z.string().uuid() });

export const HandlerIdParam = z.object({ id: z.string().uuid(), handlerId: z.string().uuid() });
