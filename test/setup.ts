import {
  applyD1Migrations,
  type D1Migration,
  env,
  listDurableObjectIds,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { afterAll, beforeAll } from "vitest";
import worker from "../src/index";
import type { AnalysisUnit } from "../src/scanner/execution/analysis-unit";

// Runs before each test file; applyD1Migrations skips migrations already applied. The migrations are a
// test-only binding (vitest.config.ts), not part of the service's generated Env.
const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: D1Migration[] };
await applyD1Migrations(env.DB, TEST_MIGRATIONS);

/**
 * Test files share a workerd runtime with the files after them. An analysis unit of this file whose alarm is still
 * scheduled or running when the file ends (a test that took its 202/504, or read the response before the unit's last
 * step) would run during a later file, whose harness does not host it: vitest then loses its channel to the pool and
 * the run can hang (`Closing rpc while "resolve" was pending`, seen in local runs). So each file lets its own units
 * finish first (bounded).
 */
const UNIT_DRAIN_MS = 60_000;
let unitsBefore = new Set<string>();

async function running(unit: AnalysisUnit, state: DurableObjectState): Promise<boolean> {
  return (await state.storage.get("task")) !== undefined && (await unit.progress())?.phase === "running";
}

/**
 * The same for queue batches: the runtime runs the JOBS consumer (`worker.queue`) for messages a test's requests
 * queued, and no test awaits it. Counted here (wrapped once per runtime) so each file ends only once the batches its
 * last requests queued have run; messages sent with a delay (a result push's next attempt) are not waited for.
 */
const QUEUE_SETTLE_MS = 100;
const QUEUE_DRAIN_MS = 30_000;
const batches = countedQueueBatches();

function countedQueueBatches(): { running: number } {
  const counted = worker as typeof worker & { runningBatches?: { running: number } };
  if (!counted.runningBatches) {
    const runningBatches = { running: 0 };
    const consume = worker.queue;
    counted.runningBatches = runningBatches;
    counted.queue = async (...args) => {
      runningBatches.running++;
      try {
        return await consume(...args);
      } finally {
        runningBatches.running--;
      }
    };
  }
  return counted.runningBatches;
}

async function queueSettled(): Promise<void> {
  const deadline = Date.now() + QUEUE_DRAIN_MS;
  do await new Promise((resolve) => setTimeout(resolve, QUEUE_SETTLE_MS));
  while (batches.running > 0 && Date.now() < deadline);
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
  await queueSettled();
});
