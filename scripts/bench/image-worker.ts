// Bench-only Worker (scripts/bench/image.bench.mjs runs it with `wrangler dev -c scripts/bench/image.wrangler.toml`):
// runs one image detector (or all of them, sharing one block analysis as in the pipeline) on the
// posted bytes, so their cost can be timed from outside and the workerd process's memory watched.
import { imageAnalyzers } from "../../src/scanner/forensics/image-analyzers";
import type { ScanContext, ScanFile } from "../../src/scanner/types";

const ctx: ScanContext = { language: "en", issueDate: null, now: new Date(), caseNumber: "BENCH" };

function asFile(bytes: Uint8Array): ScanFile {
  const png = bytes[0] === 0x89 && bytes[1] === 0x50;
  return { name: png ? "bench.png" : "bench.jpg", bytes, kind: png ? "png" : "jpeg", mimeType: png ? "image/png" : "image/jpeg", sha256: "0".repeat(64), size: bytes.length };
}

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    const match = /^\/analyze\/([\w-]+)$/.exec(pathname);
    if (!match || request.method !== "POST") return new Response("not found", { status: 404 });
    const file = asFile(new Uint8Array(await request.arrayBuffer()));
    const selected = match[1] === "all" ? imageAnalyzers : imageAnalyzers.filter((a) => a.id === match[1]);
    if (!selected.length) return new Response("unknown detector", { status: 404 });
    const out: Record<string, string[]> = {};
    for (const a of selected) {
      const r = await a.analyze(file, ctx);
      out[a.id] = r.findings.map((f) => `${f.code}:${f.level}`);
    }
    return Response.json(out);
  },
};
