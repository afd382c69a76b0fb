import { z } from "@hono/zod-openapi";
import { captureResults, caseStatuses, communicationModes, finalDecisions } from "../../db/schema";
import { normalizeCaseNumber } from "../../lib/case-number";

/** Every caseNumber the capture API takes goes through the one normalisation (trim, NFC). */
const normalizedCaseNumber = () => z.string().overwrite(normalizeCaseNumber);

const caseNumber = normalizedCaseNumber()
  .min(1)
  .max(100)
  .regex(/^[^\u0000-\u001f\u007f]+$/, "must not contain control characters")
  .openapi({ description: "The caller's case number. Slashes are allowed.", example: "SCH-2026/00042" });

const e164 = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, "must be an international number in E.164 format, e.g. +4915112345678");

/** Spec 2.1. Unknown fields are refused so typos (e.g. `reminder`) do not pass silently. */
export const CreateCaseSchema = z
  .object({
    caseNumber,
    sbEmail: z.email().max(254).optional(),
    vnName: z.string().trim().min(1).max(200).optional(),
    vnEmail: z.email().max(254).optional(),
    vnPhone: e164.optional(),
    customNote: z.string().max(2000).optional(),
    scenes: z
      .array(z.object({ description: z.string().max(1000) }).strict())
      .max(20)
      .optional()
      .openapi({ description: "Only the first 3 are used; descriptions under 5 or over 100 characters are ignored." }),
    reminders: z.boolean().optional().openapi({ description: "Switches on reminders to the policyholder." }),
  })
  .strict()
  .openapi("CaptureCaseCreate");

export const NotificationStatusSchema = z.object({ emailSent: z.boolean(), smsSent: z.boolean() });

/** Spec 2.3. */
export const CaseLinkSchema = z
  .object({
    ticketId: z.uuid(),
    caseNumber: z.string(),
    captureLink: z.url(),
    sessionId: z.uuid(),
    communicationMode: z.enum(communicationModes),
    notificationStatus: NotificationStatusSchema,
  })
  .openapi("CaptureCaseLink");

const dateTime = z.string().openapi({ format: "date-time", example: "2026-11-22T10:00:00.000+00:00" });

/** Spec 2.4. */
export const CaseStatusSchema = z
  .object({
    ticketId: z.string(),
    caseNumber: z.string(),
    status: z.enum(caseStatuses),
    closed: z.boolean(),
    lastResult: z.enum(captureResults).nullable(),
    finalDecision: z.enum(finalDecisions).nullable(),
    attemptCount: z.number().int(),
    retriggerCount: z.number().int(),
    reminderCount: z.number().int(),
    createdAt: dateTime,
    updatedAt: dateTime,
    closedAt: dateTime.nullable(),
    communicationMode: z.enum(communicationModes),
    captureLink: z.string(),
    sessions: z.array(
      z.object({
        sessionNumber: z.number().int(),
        sessionId: z.string(),
        captureLink: z.string(),
        triggeredAt: dateTime,
        attemptCount: z.number().int(),
        finalStatus: z.string().openapi({ description: "open, superseded or closed" }),
      }),
    ),
    scenes: z.array(z.object({ description: z.string(), completed: z.boolean() })),
    resultPush: z.object({ status: z.string(), at: dateTime, statusCode: z.number().int() }).nullable(),
    events: z.array(z.object({ timestamp: dateTime, action: z.string(), actor: z.string() })),
  })
  .openapi("CaptureCaseStatus");

export const StatusQuerySchema = z
  .object({
    ticketId: z.string().max(100).optional().openapi({ description: "Exactly this case; wins over caseNumber." }),
    caseNumber: normalizedCaseNumber()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: "URL-encoded; the most recent case for it. Trimmed and NFC-normalised like on create." }),
  })
  .refine((q) => q.ticketId !== undefined || q.caseNumber !== undefined, {
    message: "Pass ticketId or caseNumber.",
    path: ["ticketId"],
  });

export const RetriggerSchema = z
  .object({ ticketId: z.string().max(100).optional(), caseNumber: caseNumber.optional() })
  .strict()
  .refine((b) => b.ticketId !== undefined || b.caseNumber !== undefined, {
    message: "Pass ticketId or caseNumber.",
    path: ["ticketId"],
  })
  .openapi("CaptureRetrigger");
