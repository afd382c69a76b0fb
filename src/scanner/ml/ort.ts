/**
 * onnxruntime-web inside workerd (recipe in WORKERD-NOTES): Workers refuse to compile wasm from bytes,
 * so ORT gets a 4-byte placeholder as its binary and `WebAssembly.instantiate` answers that placeholder
 * with the module wrangler precompiled from the import (matched by content: ORT copies the bytes). A failed first init is permanent for the
 * isolate, so this runs once, before the first session, and every model gets ONE memoised session.
 */
import * as ort from "onnxruntime-web/wasm";
import ortWasm from "onnxruntime-web/ort-wasm-simd-threaded.wasm";
import { IsolateOnce } from "../../lib/isolate-once";
import type { ModelFile } from "./models";

const PLACEHOLDER = new Uint8Array([0x4f, 0x52, 0x54, 0x21]);
let configured = false;

function configureOrt(): void {
  if (configured) return;
  configured = true;
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.wasm.wasmBinary = PLACEHOLDER;
  ort.env.logLevel = "error";
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = ((source: unknown, imports?: WebAssembly.Imports) =>
    isPlaceholder(source)
      ? instantiate(ortWasm, imports).then((instance) => ({ instance, module: ortWasm }))
      : instantiate(source as BufferSource, imports)) as typeof WebAssembly.instantiate;
}

/** ORT 1.30 hands over a COPY of `wasmBinary` (`new Uint8Array(g)`), so compare contents, not identity. */
function isPlaceholder(source: unknown): boolean {
  if (!(source instanceof Uint8Array || source instanceof ArrayBuffer)) return false;
  const bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
  return bytes.length === PLACEHOLDER.length && bytes.every((b, i) => b === PLACEHOLDER[i]);
}

/** The one session per model file and isolate, created one at a time (lib/isolate-once.ts says why). */
const sessions = new IsolateOnce<string, ort.InferenceSession>();
let runs = 0;

export function sessionFor(model: ModelFile): Promise<ort.InferenceSession> {
  return sessions.get(model.fullSha256, () => {
    configureOrt();
    return ort.InferenceSession.create(new Uint8Array(model.bytes), {
      executionProviders: ["wasm"],
      graphOptimizationLevel: "all",
    });
  });
}

/** How many inferences this isolate has run (tests prove rejected inputs never got this far). */
export function inferenceRuns(): number {
  return runs;
}

export interface ModelInput {
  name: string;
  data: Float32Array;
  dims: number[];
}

export type ModelOutputs = Record<string, { data: Float32Array; dims: readonly number[] }>;

/** Runs the model on one float32 NCHW tensor and returns the requested outputs. */
export async function runModel(model: ModelFile, input: ModelInput, outputs: string[]): Promise<ModelOutputs> {
  const session = await sessionFor(model);
  runs++;
  const feed = new ort.Tensor("float32", input.data, input.dims);
  try {
    const result = await session.run({ [input.name]: feed });
    return Object.fromEntries(
      outputs.map((name) => [name, { data: result[name].data as Float32Array, dims: result[name].dims }]),
    );
  } finally {
    feed.dispose();
  }
}
