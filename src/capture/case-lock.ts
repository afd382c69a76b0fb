import { DurableObject } from "cloudflare:workers";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Env } from "../env";
import type { AccountRecord } from "../accounts/service";
import { ApiError } from "../lib/problem";
import { boardActionLocked, type BoardAction } from "../board/actions";
import type { TransitionName } from "./lifecycle";
import { recordBounceLocked } from "./mail/bounces";
import { recordPushLocked, type PushOutcome } from "./push/record";
import { remindLocked } from "./reminders";
import {
  createCaseLocked,
  retriggerLocked,
  transitionLocked,
  type CreateCaseInput,
  type TransitionOptions,
} from "./service";

/** RPC answers carry a known error as data: classes do not survive the RPC boundary. */
type LockResult<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; code: string; detail: string; body?: Record<string, unknown> };

/**
 * One instance per account + case number (DESIGN §1). Every change to the cases of that case
 * number runs here, one at a time, so "one open case per case number" and the lifecycle hold
 * under parallel requests. D1 stays the source of truth; this object only serialises.
 */
export class CaseLock extends DurableObject<Env> {
  private tail: Promise<unknown> = Promise.resolve();

  create(account: AccountRecord, input: CreateCaseInput) {
    return this.serialised(() => createCaseLocked(this.env, account, input));
  }

  transition(accountId: string, caseId: string, name: TransitionName, opts: Omit<TransitionOptions, "statements">) {
    return this.serialised(() => transitionLocked(this.env, accountId, caseId, name, opts));
  }

  retrigger(account: AccountRecord, caseId: string, actor: TransitionOptions["actor"]) {
    return this.serialised(() => retriggerLocked(this.env, account, caseId, actor));
  }

  /** The cron's reminder visit: the next reminder or the escalation, if the case is still due for it. */
  remind(accountId: string, caseId: string) {
    return this.serialised(() => remindLocked(this.env, accountId, caseId));
  }

  /** The outcome of a result push attempt: its delivery row and its event, in one batch. */
  recordPush(accountId: string, caseId: string, deliveryId: string, outcome: PushOutcome) {
    return this.serialised(() => recordPushLocked(this.env, accountId, caseId, deliveryId, outcome));
  }

  /** A bounced invitation/reminder e-mail: its outbox row failed and `invitation_bounced`, once. */
  recordBounce(accountId: string, caseId: string, outboxId: string) {
    return this.serialised(() => recordBounceLocked(this.env, accountId, caseId, outboxId));
  }

  /** A claims handler's close, re-trigger or note from the board (src/board/actions.ts). */
  boardAction(handler: { id: string; accountId: string }, caseId: string, action: BoardAction) {
    return this.serialised(() => boardActionLocked(this.env, handler, caseId, action));
  }

  /** Runs `work` after everything queued before it; awaits on D1 would otherwise interleave. */
  private serialised<T>(work: () => Promise<T>): Promise<LockResult<T>> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run.then(
      (value): LockResult<T> => ({ ok: true, value }),
      (err): LockResult<T> => {
        if (err instanceof ApiError)
          return { ok: false, status: err.httpStatus, code: err.code, detail: err.detail, body: err.extra.body };
        throw err;
      },
    );
  }
}

/** The lock for an account's case number. */
export function caseLockFor(env: Env, accountId: string, caseNumber: string) {
  return env.CASE_LOCK.get(env.CASE_LOCK.idFromName(`${accountId}\u0000${caseNumber}`));
}

/** The value of a lock call, or its error re-thrown as the ApiError it was. */
export async function unwrap<T>(result: Promise<LockResult<T>>): Promise<T> {
  const r = await result;
  if (r.ok) return r.value;
  throw new ApiError(r.status as ContentfulStatusCode, r.code, r.detail, { body: r.body });
}
