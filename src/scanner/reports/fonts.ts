import bold from "./fonts/DejaVuSans-Bold.ttf";
import regular from "./fonts/DejaVuSans.ttf";
import type { FontFiles } from "./layout";

/**
 * The reports' font in the Worker: DejaVu Sans cut to Latin-1, Latin Extended-A and common punctuation
 * (German, Polish, English; licence in fonts/LICENSE.txt), bundled as Data modules (wrangler.toml
 * [[rules]]). pdf-lib embeds only the glyphs a report uses.
 */
export const workerFonts: FontFiles = {
  // vite/client (pulled in by the test pool's types) declares `*.ttf` as a URL string; wrangler's Data rule
  // makes it the file's bytes.
  regular: regular as unknown as ArrayBuffer,
  bold: bold as unknown as ArrayBuffer,
};
