import type { AccountRecord } from "../accounts/service";
import { invalid, type FieldError } from "../lib/problem";
import type { CreateCaseInput } from "./service";

/** Spec 2.1: in mode provider_versand the service sends the link, so it needs a name and a channel. */
export function assertModeRequirements(account: AccountRecord, input: CreateCaseInput): void {
  if (account.communicationMode !== "provider_versand") return;
  const errors: FieldError[] = [];
  if (!input.vnName) errors.push({ field: "vnName", message: "is required in mode provider_versand" });
  if (!input.vnEmail && !input.vnPhone)
    errors.push({ field: "vnEmail", message: "vnEmail or vnPhone is required in mode provider_versand" });
  if (errors.length > 0) throw invalid(errors);
}
