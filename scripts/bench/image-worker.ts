// Bench-only Worker (scripts/bench/image.bench.mjs runs it with `wrangler dev -c scripts/bench/image.wrangler.toml`):
// runs one image detector (or all of them, sharing one block analysis as in the pipeline) on the
// posted bytes, or only the streaming JPEG decoder (/decode; /decode-reference with the JavaScript
// kernels), or every detector a photo goes through as the pipeline runs them (/file: thumbnail, both
// models, every image detector; /file?separate: each decoding by itself), so their cost can be timed
// from outside and the workerd process's memory watched.
import { analyzeFile } from "../../src/scanner/analysis/pipeline";
import { imageAnalyzers } from "../../src/scanner/forensics/image-analyzers";
import { manipulationAnalyzer } from "../../src/scanner/forensics/manipulation-model";
import { recaptureAnalyzer } from "../../src/scanner/forensics/recapture-model";
import { thumbnailAnalyzer } from "../../src/scanner/forensics/thumbnail";
import { decodesOf } from "../../src/scanner/images/decode-count";
import { useSharedDecode } from "../../src/scanner/images/file-decode";
import { JpegStripDecoder } from "../../src/scanner/images/jpeg-strip-decoder";
import { benchContext, benchFile, plannedAnalyzers } from "./bench-file";

/** What a photo goes through in the service, in registry order. */
const photoAnalyzers = [thumbnailAnalyzer, recaptureAnalyzer, manipulationAnalyzer, ...imageAnalyzers];

/** Every detector of a photo through the pipeline's analyzeFile; `separate`: each detector decodes by itself. */
async function wholeFile(bytes: Uint8Array, separate: boolean): Promise<Response> {
  const file = benchFile(bytes);
  useSharedDecode(!separate);
  try {
    const { result } = await analyzeFile(file, benchContext, async (a) => a.name, photoAnalyzers);
    return Response.json({
      level: result.suspicion_level,
      findings: result.findings.length,
      decodes: decodesOf(bytes),
    });
  } finally {
    useSharedDecode(true);
  }
}

/** Every band of a baseline JPEG through the strip decoder (wasm kernels, or the JavaScript reference). */
function decodeAll(bytes: Uint8Array, reference: boolean): Response {
  const decoder = JpegStripDecoder.open(bytes, undefined, { reference });
  if (typeof decoder === "string") return new Response(decoder, { status: 422 });
  let rows = 0;
  for (let band = decoder.next(); band; band = decoder.next()) rows += band.rows;
  return Response.json({ width: decoder.width, rows });
}

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/detectors") return Response.json(imageAnalyzers.map((a) => a.id));
    // The request round trip alone (the body read, nothing done with it): the transport share of every timing.
    if (pathname === "/echo") return Response.json({ bytes: (await request.arrayBuffer()).byteLength });
    if (request.method === "POST" && (pathname === "/decode" || pathname === "/decode-reference"))
      return decodeAll(new Uint8Array(await request.arrayBuffer()), pathname === "/decode-reference");
    if (request.method === "POST" && pathname === "/file")
      return wholeFile(new Uint8Array(await request.arrayBuffer()), new URL(request.url).searchParams.has("separate"));
    const match = /^\/analyze\/([\w+-]+)$/.exec(pathname);
    if (!match || request.method !== "POST") return new Response("not found", { status: 404 });
    const file = benchFile(new Uint8Array(await request.arrayBuffer()));
    // "all" = every registered image detector; "a+b+c" = those detectors together, in run order.
    const ids = match[1].split("+");
    const selected = match[1] === "all" ? imageAnalyzers : imageAnalyzers.filter((a) => ids.includes(a.id));
    if (!selected.length) return new Response("unknown detector", { status: 404 });
    // Planned as the pipeline plans them: one Huffman pass feeds every coefficient product the selection reads.
    const applicable = plannedAnalyzers(file, selected);
    const out: Record<string, string[]> = {};
    for (const a of applicable) {
      const r = await a.analyze(file, benchContext);
      out[a.id] = r.findings.map((f) => `${f.code}:${f.level}`);
    }
    return Response.json(out);
  },
};
