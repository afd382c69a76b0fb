import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";

/**
 * The rule of the repositories (README "Code layout"): every D1 query lives in a repository module,
 * so the tenancy rule (DESIGN §4) is audited there and nowhere else. Allowed: src/db/ (client,
 * schema), any `repository.ts` and anything under a `repository/` folder.
 */
const isRepository = (path: string) =>
  path.startsWith("src/db/") || /(^|\/)repository\.ts$/.test(path) || /(^|\/)repository\//.test(path);

const TABLES = new Set(Object.entries(schema).flatMap(([name, value]) => (is(value, SQLiteTable) ? [name] : [])));

/** What in `text` builds or runs a D1 query: drizzle operators or tables imported as values, relational finds, raw D1 calls. */
function queryUses(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)"/g)) {
    const [, typeOnly, names, from] = m;
    const values = typeOnly
      ? []
      : names
          .split(",")
          .map((n) => n.trim())
          .filter((n) => n && !n.startsWith("type "))
          .map((n) => n.split(/\s+as\s+/)[0]);
    if (from === "drizzle-orm" && values.length > 0) found.push(`imports ${values.join(", ")} from drizzle-orm`);
    if (/\/db\/schema(\/|$)/.test(from))
      for (const name of values) if (TABLES.has(name)) found.push(`imports the table ${name}`);
  }
  for (const m of text.matchAll(/\.query\.\w+\.find(First|Many)\(|\.(prepare|batch)\(/g)) found.push(`calls ${m[0]}`);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [relative(".", path)] : [];
  });
}

describe("every D1 query is in a repository", () => {
  it("no file outside src/db/ and the repositories imports tables or drizzle operators, or calls D1", () => {
    const outside = sourceFiles("src")
      .filter((path) => !isRepository(path))
      .flatMap((path) => queryUses(readFileSync(path, "utf8")).map((use) => `${path}: ${use}`));
    expect(outside).toEqual([]);
  });

  it("the check finds each kind of query (it is not blind)", () => {
    expect(queryUses('import { and, eq } from "drizzle-orm";')).toEqual(["imports and, eq from drizzle-orm"]);
    expect(queryUses('import { outbox, type CaseStatus } from "../db/schema";')).toEqual(["imports the table outbox"]);
    expect(queryUses("const row = await db.query.outbox.findFirst({});")).toEqual(["calls .query.outbox.findFirst("]);
    expect(queryUses("await env.DB.prepare(`DELETE FROM uploads`).run();")).toEqual(["calls .prepare("]);
    // Types, enum lists and the queue's sendBatch are not queries.
    expect(
      queryUses(
        'import type { outbox } from "../db/schema";\nimport { caseStatuses } from "../db/schema";\nimport type { BatchItem } from "drizzle-orm/batch";\nawait env.JOBS.sendBatch([]);',
      ),
    ).toEqual([]);
  });

  it("the repositories it allows are where the queries are", () => {
    const repositories = sourceFiles("src").filter((path) => isRepository(path) && !path.startsWith("src/db/"));
    expect(repositories.sort()).toEqual([
      "src/accounts/repository.ts",
      "src/board/auth/repository.ts",
      "src/board/repository.ts",
      "src/capture/repository/cases.ts",
      "src/capture/repository/messages.ts",
      "src/capture/repository/photos.ts",
      "src/capture/repository/pushes.ts",
      "src/queue/repository.ts",
      "src/scanner/repository.ts",
    ]);
  });
});
