import { describe, expect, it } from "vitest";
import { nextState, transitions, type CaseState, type TransitionName } from "../../src/capture/lifecycle";

const now = new Date("2026-11-22T10:00:00Z");
const state = (status: CaseState["status"], extra: Partial<CaseState> = {}): CaseState => ({
  status,
  lastResult: "pending",
  finalDecision: null,
  closed: status === "closed",
  closedAt: null,
  ...extra,
});

describe("case lifecycle (DESIGN §15)", () => {
  it("result io closes the case with closed_io", () => {
    expect(nextState(state("sent"), "resultIo", now)).toEqual({
      status: "closed",
      lastResult: "io",
      finalDecision: "closed_io",
      closed: true,
      closedAt: now,
    });
  });

  it.each<[TransitionName, string]>([
    ["resultNichtIoFinal", "nicht_io"],
    ["resultGpsSuspicious", "io_gps_suspicious"],
    ["resultSceneOverride", "io_scene_override"],
    ["inspectionRequested", "inspection_requested"],
    ["claimWithdrawn", "claim_withdrawn"],
  ])("%s moves the case to manual with lastResult %s", (name, lastResult) => {
    expect(nextState(state("reminder"), name, now)).toMatchObject({ status: "manual", lastResult, closed: false });
  });

  it("reminders: the first moves sent to reminder; a follow-up may come after a re-trigger set sent again", () => {
    expect(nextState(state("sent"), "reminderFirst", now)?.status).toBe("reminder");
    expect(nextState(state("sent"), "reminderFollowup", now)?.status).toBe("reminder");
    expect(nextState(state("manual"), "reminderFollowup", now)).toBeNull();
  });

  it("reminders exhausted escalate to manual", () => {
    expect(nextState(state("reminder"), "remindersExhausted", now)?.status).toBe("manual");
  });

  it("a handler closes any open case, but only with a decision", () => {
    for (const status of ["sent", "reminder", "manual"] as const) {
      expect(nextState(state(status), "manualClose", now, "betrug_bestaetigt")).toMatchObject({
        status: "closed",
        finalDecision: "betrug_bestaetigt",
        closed: true,
      });
      expect(nextState(state(status), "manualClose", now)).toBeNull();
    }
  });

  it("a closed case stays closed: no transition leaves it except recording push outcomes and bounces", () => {
    const closed = state("closed", { finalDecision: "closed_io", closedAt: now });
    const allowed = (Object.keys(transitions) as TransitionName[]).filter(
      (name) => nextState(closed, name, now, "sonstiges") !== null,
    );
    expect(allowed.sort()).toEqual(["notificationBounced", "pushDelivered", "pushFailed"]);
    expect(nextState(closed, "pushDelivered", now)).toEqual(closed);
  });

  it("re-trigger resets a manual case to sent and pending", () => {
    expect(nextState(state("manual", { lastResult: "nicht_io" }), "retrigger", now)).toMatchObject({
      status: "sent",
      lastResult: "pending",
    });
  });

  it("a failed attempt with tries left keeps the column and records nicht_io", () => {
    expect(nextState(state("sent"), "attemptFailed", now)).toMatchObject({ status: "sent", lastResult: "nicht_io" });
  });

  it("every transition names a spec-style action", () => {
    for (const t of Object.values(transitions)) expect(t.action).toMatch(/^[a-z_]+$/);
  });
});
