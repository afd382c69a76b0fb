import type { Env } from "../../env";
import type { AppVariables } from "../../lib/app";

/** The logged-in claims handler, set by `requireHandler`; `csrfToken` goes into every form as `_csrf`. */
export interface BoardHandler {
  id: string;
  accountId: string;
  name: string;
  email: string;
  csrfToken: string;
}

export type BoardEnv = { Bindings: Env; Variables: AppVariables & { handler: BoardHandler } };
