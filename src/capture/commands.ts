import type { AccountRecord } from "../accounts/service";
import type { Env } from "../env";
import { caseLockFor, unwrap } from "./case-lock";
import type { Actor } from "./lifecycle";
import { dispatchNotifications } from "./notification-dispatch";
import type { CaseLinkView, CreateCaseInput, CreateOutcome } from "./service";

/**
 * Creates a case under its CaseLock, then hands the invitations to the providers outside the lock
 * (a slow provider must not hold up other changes of the case).
 */
export async function createCase(env: Env, account: AccountRecord, input: CreateCaseInput): Promise<CreateOutcome> {
  const outcome = await unwrap(caseLockFor(env, account.id, input.caseNumber).create(account, input));
  if (!outcome.created) return outcome;
  const notificationStatus = await dispatchNotifications(env, outcome.outboxIds);
  return { ...outcome, view: { ...outcome.view, notificationStatus } };
}

/** Re-trigger (DESIGN §15) by the API or a handler: new link, and in provider_versand the invitation again. */
export async function retriggerCase(
  env: Env,
  account: AccountRecord,
  target: { id: string; caseNumber: string },
  actor: Actor,
): Promise<CaseLinkView> {
  const { view, outboxIds } = await unwrap(
    caseLockFor(env, account.id, target.caseNumber).retrigger(account, target.id, actor),
  );
  return { ...view, notificationStatus: await dispatchNotifications(env, outboxIds) };
}
