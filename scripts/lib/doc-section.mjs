// Writes one generated section of a markdown document between
// `<!-- section:NAME -->` and `<!-- /section:NAME -->`, keeping every other section as it is.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

export function writeDocSection(file, name, markdown, title = "") {
  const start = `<!-- section:${name} -->`;
  const end = `<!-- /section:${name} -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let doc = existsSync(file) ? readFileSync(file, "utf8") : `${title}\n\n`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  doc =
    from >= 0 && to > from ? doc.slice(0, from) + block + doc.slice(to + end.length) : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, doc);
}
