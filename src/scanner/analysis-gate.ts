import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

/** One instance per request digest (DESIGN §10). Built out by the scanner API work. */
export class AnalysisGate extends DurableObject<Env> {}
