import { deleteDeadSessions } from "../board/auth/sessions";
import { deleteStaleThrottles } from "../board/auth/throttle";
import { limits, type Env } from "../env";

/** Board login state that can no longer matter: ended sessions, forgotten failed-login counts (docs/board.md). */
export async function sweepBoardLogins(env: Env): Promise<void> {
  const l = limits(env);
  await deleteDeadSessions(env.DB, { idleS: l.boardSessionIdleS, maxS: l.boardSessionMaxS });
  await deleteStaleThrottles(env.DB);
}
