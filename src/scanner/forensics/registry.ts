import type { Analyzer } from "../types";

/**
 * Every registered detector, run in this order on each file it applies to.
 * Add a detector by importing it and appending it here; nothing else changes.
 */
export const analyzers: Analyzer[] = [];
