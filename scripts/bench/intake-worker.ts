// Bench-only Worker: the service's ZIP intake (src/scanner/intake) without any analyzer, so its own
// time and memory can be measured. POST /direct (multipart `file`), PUT /upload (streamed into R2),
// POST /presigned (intake from R2). Each intake runs both passes the service runs: the validating
// manifest (Worker) and the file-by-file walk (queue consumer).
import { archiveManifest, intakeArchive, memorySource, r2Source, type ZipSource } from "../../src/scanner/intake";

interface BenchEnv {
  BUCKET: R2Bucket;
}

async function intake(source: ZipSource) {
  const t0 = Date.now();
  const manifest = await archiveManifest(source);
  const t1 = Date.now();
  let bytes = 0;
  for await (const item of intakeArchive(source)) if (item.ok) bytes += item.file.size;
  return { files: manifest.length, bytes, manifestMs: t1 - t0, walkMs: Date.now() - t1 };
}

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === "/direct") {
      const form = await request.formData();
      const file = form.get("file") as unknown as File;
      return Response.json(await intake(memorySource(new Uint8Array(await file.arrayBuffer()))));
    }
    if (path === "/upload") {
      const size = Number(request.headers.get("content-length"));
      const fixed = new FixedLengthStream(size);
      await Promise.all([request.body!.pipeTo(fixed.writable), env.BUCKET.put("bench.zip", fixed.readable)]);
      return Response.json({ stored: size });
    }
    if (path === "/presigned") return Response.json(await intake((await r2Source(env.BUCKET, "bench.zip"))!));
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<BenchEnv>;
