import { describe, expect, it } from "vitest";
import { settleWithin, withTimeout } from "../../src/lib/timeout";

const never = new Promise<never>(() => {});

describe("a bounded wait ends with the value or at the limit, never later", () => {
  it("settleWithin: the value when it comes first, the fallback when the limit does", async () => {
    expect(await settleWithin(Promise.resolve("done"), 1000, "late")).toBe("done");
    expect(await settleWithin(never, 5, "late")).toBe("late");
  });

  it("withTimeout: the value when it comes first, an error naming the work when the limit does", async () => {
    expect(await withTimeout(Promise.resolve(7), 1000, "counting")).toBe(7);
    await expect(withTimeout(never, 5, "reading the pages")).rejects.toThrow("reading the pages took longer than 5 ms");
  });

  it("withTimeout passes the work's own failure on", async () => {
    await expect(withTimeout(Promise.reject(new Error("broken")), 1000, "x")).rejects.toThrow("broken");
  });
});
