// Bench-only Worker (scripts/bench/image.bench.mjs runs it with `wrangler dev -c scripts/bench/image.wrangler.toml`):
// runs one image detector (or all of them, sharing one block analysis as in the pipeline) on the
// posted bytes, so their cost can be timed from outside and the workerd process's memory watched.
import { imageAnalyzers } from "../../src/scanner/forensics/image-analyzers";
import { benchContext, benchFile } from "./bench-file";

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    const match = /^\/analyze\/([\w-]+)$/.exec(pathname);
    if (!match || request.method !== "POST") return new Response("not found", { status: 404 });
    const file = benchFile(new Uint8Array(await request.arrayBuffer()));
    const selected = match[1] === "all" ? imageAnalyzers : imageAnalyzers.filter((a) => a.id === match[1]);
    if (!selected.length) return new Response("unknown detector", { status: 404 });
    const out: Record<string, string[]> = {};
    for (const a of selected) {
      const r = await a.analyze(file, benchContext);
      out[a.id] = r.findings.map((f) => `${f.code}:${f.level}`);
    }
    return Response.json(out);
  },
};
