import { getDb } from "../db/client";
import type { accounts, CommunicationMode, ReminderSettings } from "../db/schema";
import { clock } from "../lib/clock";
import { hashPassword, sha256Hex } from "../lib/crypto";
import { newApiKey, newId } from "../lib/ids";
import { ApiError, notFound } from "../lib/problem";
import {
  findAccount,
  findHandlerByEmail,
  insertAccount,
  insertApiKey,
  insertHandler,
  markHandlerRemoved,
  updateAccountColumns,
} from "./repository";
import { deleteAllHandlerSessions } from "../board/auth/repository";

export type AccountRecord = typeof accounts.$inferSelect;

/** Account features (DESIGN §7); absent means off. */
export const featureNames = [
  "presignedDownload",
  "resultCache",
  "crossFileAnalyses",
  "agenticRecommendation",
  "pdfReportMapping",
  /** Reverse search also compares scanner files with live capture photos (off: spec 1, docs/reverse-search.md). */
  "reverseSearchCapturePhotos",
] as const;
export type FeatureName = (typeof featureNames)[number];

export function hasFeature(account: AccountRecord, feature: FeatureName): boolean {
  return account.features?.[feature] === true;
}

export interface AccountSettings {
  name: string;
  communicationMode: CommunicationMode;
  features?: Partial<Record<FeatureName, boolean>>;
  push?: { url: string; secret: string } | null;
  reminders?: ReminderSettings | null;
  /** Language of the policyholder's e-mails; German when not given. */
  language?: "de" | "en" | "pl";
  /** Days reverse-search hashes are kept (docs/reverse-search.md); 365 when not given. */
  hashRetentionDays?: number;
}

export async function createAccount(d1: D1Database, settings: AccountSettings) {
  const id = newId();
  const now = clock.now();
  await insertAccount(getDb(d1), {
    id,
    name: settings.name,
    communicationMode: settings.communicationMode,
    features: settings.features ?? {},
    pushUrl: settings.push?.url ?? null,
    pushSecret: settings.push?.secret ?? null,
    reminders: settings.reminders ?? null,
    language: settings.language ?? "de",
    ...(settings.hashRetentionDays !== undefined && { hashRetentionDays: settings.hashRetentionDays }),
    createdAt: now,
  });
  const apiKey = await issueApiKey(d1, id);
  return { accountId: id, apiKey };
}

export async function updateAccount(d1: D1Database, id: string, patch: Partial<AccountSettings>) {
  const db = getDb(d1);
  const current = await findAccount(db, id);
  if (!current) throw notFound("Account");
  await updateAccountColumns(db, id, {
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.communicationMode !== undefined && { communicationMode: patch.communicationMode }),
    ...(patch.features !== undefined && { features: { ...current.features, ...patch.features } }),
    ...(patch.push !== undefined && { pushUrl: patch.push?.url ?? null, pushSecret: patch.push?.secret ?? null }),
    ...(patch.reminders !== undefined && { reminders: patch.reminders }),
    ...(patch.language !== undefined && { language: patch.language }),
    ...(patch.hashRetentionDays !== undefined && { hashRetentionDays: patch.hashRetentionDays }),
  });
  return publicAccount((await findAccount(db, id))!);
}

/** A new key for the account, returned once; only its hash is kept. */
export async function issueApiKey(d1: D1Database, accountId: string): Promise<string> {
  const db = getDb(d1);
  if (!(await findAccount(db, accountId))) throw notFound("Account");
  const apiKey = newApiKey();
  await insertApiKey(db, { id: newId(), accountId, keyHash: await sha256Hex(apiKey), createdAt: clock.now() });
  return apiKey;
}

export async function createHandler(
  d1: D1Database,
  accountId: string,
  input: { email: string; password: string; name: string },
) {
  const db = getDb(d1);
  if (!(await findAccount(db, accountId))) throw notFound("Account");
  const email = input.email.toLowerCase();
  if (await findHandlerByEmail(db, email)) {
    throw new ApiError(409, "handler-exists", "A handler with this e-mail exists already.");
  }
  const id = newId();
  await insertHandler(db, {
    id,
    accountId,
    email,
    name: input.name,
    passwordHash: await hashPassword(input.password),
    createdAt: clock.now(),
  });
  return { handlerId: id, email, name: input.name };
}

/**
 * Removes a claims handler (they left, or their login leaked): no login from now on, every open board
 * session ends at once; their notes and events keep their name. Their e-mail may be given to a new handler.
 */
export async function removeHandler(d1: D1Database, accountId: string, handlerId: string): Promise<void> {
  const db = getDb(d1);
  if (!(await markHandlerRemoved(db, accountId, handlerId, clock.now()))) throw notFound("Handler");
  await deleteAllHandlerSessions(db, handlerId);
}

/** What the admin API shows of an account: never the push secret. */
export function publicAccount(account: AccountRecord) {
  return {
    accountId: account.id,
    name: account.name,
    communicationMode: account.communicationMode,
    features: account.features,
    push: account.pushUrl ? { url: account.pushUrl } : null,
    reminders: account.reminders,
    language: account.language,
    hashRetentionDays: account.hashRetentionDays,
  };
}
