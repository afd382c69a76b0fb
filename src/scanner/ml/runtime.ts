import { IsolateOnce } from "../../lib/isolate-once";
import type { ModelFile } from "./models";
import type { ModelInput, ModelOutputs } from "./ort";

/**
 * onnxruntime-web (with ≈ 10 MB of wasm) is loaded on the first inference, not with the Worker: most
 * invocations never run a model, and every test file would load it again. One caller loads it while
 * the others wait (lib/isolate-once.ts: a pending import shared by two Durable Objects is unsafe).
 */
const runtime = new IsolateOnce<"ort", typeof import("./ort")>();

/** Runs the model on one float32 NCHW tensor and returns the requested outputs (see ./ort.ts). */
export async function runModel(model: ModelFile, input: ModelInput, outputs: string[]): Promise<ModelOutputs> {
  const ort = await runtime.get("ort", () => import("./ort"));
  return ort.runModel(model, input, outputs);
}
