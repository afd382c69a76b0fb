// Bench-only Worker (scripts/bench/ml.bench.mjs runs it with `wrangler dev -c scripts/bench/ml.wrangler.toml`):
// exposes the learned detectors so their cost can be timed from outside (Date.now() does not advance
// inside a workerd request while it computes) and the workerd process's memory watched.
import { manipulationAnalyzer } from "../../src/scanner/forensics/manipulation-model";
import { recaptureAnalyzer } from "../../src/scanner/forensics/recapture-model";
import { thumbnailAnalyzer } from "../../src/scanner/forensics/thumbnail";
import { manipulationModel, recaptureModel } from "../../src/scanner/ml/models";
import { openImage } from "../../src/scanner/ml/open-image";
import { runModel, sessionFor } from "../../src/scanner/ml/ort";
import { benchContext, benchFile } from "./bench-file";

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/sessions") {
      await sessionFor(recaptureModel);
      await sessionFor(manipulationModel);
      return Response.json({ ok: true });
    }
    if (pathname === "/infer/recapture") {
      // One 8-patch batch, the unit the recapture detector runs in.
      const data = new Float32Array(8 * 3 * 128 * 128).map((_, i) => ((i * 2654435761) % 255) / 255);
      await runModel(recaptureModel, { name: "image", data, dims: [8, 3, 128, 128] }, ["probability"]);
      return Response.json({ ok: true });
    }
    if (pathname === "/infer/manipulation") {
      // One 256 × 256 tile, the unit the manipulation detector runs in.
      const data = new Float32Array(3 * 256 * 256).map((_, i) => ((i * 2654435761) % 255) / 255);
      await runModel(manipulationModel, { name: "image", data, dims: [1, 3, 256, 256] }, ["heatmap", "score"]);
      return Response.json({ ok: true });
    }
    if (pathname === "/read" && request.method === "POST") {
      // The body alone: what holding the file costs before any decoding.
      return Response.json({ bytes: (await request.arrayBuffer()).byteLength });
    }
    if (pathname === "/decode" && request.method === "POST") {
      // Decode only, every row in 64-row strips as the detectors read them, then free: the floor every
      // pixel detector pays (baseline JPEGs and PNGs stream through a strip decoder, others go through photon).
      const opened = openImage(benchFile(new Uint8Array(await request.arrayBuffer())));
      if (!opened.ok) return Response.json({ ok: false });
      const { source } = opened;
      for (let y = 0; y < source.height; y += 64) source.rows(y, Math.min(64, source.height - y));
      source.close();
      return Response.json({ ok: true });
    }
    const analyzer =
      {
        "/analyze/recapture": recaptureAnalyzer,
        "/analyze/manipulation": manipulationAnalyzer,
        "/analyze/thumbnail": thumbnailAnalyzer,
      }[pathname] ?? null;
    if (analyzer && request.method === "POST") {
      const file = benchFile(new Uint8Array(await request.arrayBuffer()));
      const result = await analyzer.analyze(file, benchContext);
      if (new URL(request.url).searchParams.has("heatmap")) {
        // The heatmap PNG itself, to look at.
        const png = result.attachments?.[0]?.bytes;
        return png
          ? new Response(png, { headers: { "content-type": "image/png" } })
          : new Response("no heatmap", { status: 422 });
      }
      return Response.json({
        assessed: result.assessed,
        findings: result.findings.map((f) => [f.code, f.level, f.explanation]),
        metadata: result.metadata,
      });
    }
    return new Response("not found", { status: 404 });
  },
};
