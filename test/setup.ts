import {
  applyD1Migrations,
  type D1Migration,
  env,
  listDurableObjectIds,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { afterAll, beforeAll } from "vitest";
import type { AnalysisUnit } from "../src/scanner/execution/analysis-unit";

// Runs before each test file; applyD1Migrations skips migrations already applied. The migrations are a
// test-only binding (vitest.config.ts), not part of the service's generated Env.
const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: D1Migration[] };
await applyD1Migrations(env.DB, TEST_MIGRATIONS);

/**
 * Test files share a workerd runtime with the files after them. An analysis unit of this file whose alarm is still
 * scheduled or running when the file ends (a test that took its 202/504, or read the response before the unit's last
 * step) would run during a later file, whose harness does not host it: vitest then loses its channel to the pool and
 * the run hangs after the last file (CI, 2026-11-29). So each file lets its own units finish first (bounded).
 */
const UNIT_DRAIN_MS = 60_000;
let unitsBefore = new Set<string>();

async function running(unit: AnalysisUnit, state: DurableObjectState): Promise<boolean> {
  return (await state.storage.get("task")) !== undefined && (await unit.progress())?.phase === "running";
}

beforeAll(async () => {
  unitsBefore = new Set((await listDurableObjectIds(env.ANALYSIS_UNIT)).map((id) => id.toString()));
});

afterAll(async () => {
  let pending = (await listDurableObjectIds(env.ANALYSIS_UNIT)).filter((id) => !unitsBefore.has(id.toString()));
  const deadline = Date.now() + UNIT_DRAIN_MS;
  while (pending.length && Date.now() < deadline) {
    const still: DurableObjectId[] = [];
    for (const id of pending) {
      const unit = env.ANALYSIS_UNIT.get(id);
      // A unit whose alarm ran may have more to do; one that is running reports "running" until its task is gone
      // (a task without an alarm and not running is a unit a test left on purpose: it never runs again).
      if ((await runDurableObjectAlarm(unit)) || (await runInDurableObject(unit, running))) still.push(id);
    }
    pending = still;
    if (pending.length) await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
