import { ApiError } from "../../lib/problem";

/** Why a whole archive is refused (422, DESIGN §2). Per-file problems never end up here. */
export type RefusalCode =
  | "not-a-zip"
  | "zip-truncated"
  | "zip-multi-disk"
  | "zip-too-many-entries"
  | "zip-bomb"
  | "zip-encrypted"
  | "zip-unsafe-name"
  | "zip-duplicate-name"
  | "zip-nested-too-deep"
  | "zip-no-supported-file";

export function refuse(code: RefusalCode, detail: string): ApiError {
  return new ApiError(422, code, detail);
}
