/** The board's script, bundled from ../browser/ by scripts/build-browser.mjs; imported as text (wrangler.toml [[rules]]). */
declare const source: string;
export default source;
