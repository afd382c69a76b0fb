import { applyD1Migrations, type D1Migration, env } from "cloudflare:test";

// Runs before each test file; applyD1Migrations skips migrations already applied. The migrations are a
// test-only binding (vitest.config.ts), not part of the service's generated Env.
const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: D1Migration[] };
await applyD1Migrations(env.DB, TEST_MIGRATIONS);
