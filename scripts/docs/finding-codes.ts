// Writes the finding-code table of docs/forensics.md from the registry (src/scanner/finding-codes.ts):
//   node --import tsx scripts/docs/finding-codes.ts
// test/node/finding-codes-doc.test.ts fails when the document and the registry disagree.
import { findingCodesTable } from "../../src/scanner/finding-codes";
import { writeDocSection } from "../lib/doc-section.mjs";

const intro = `## Finding codes

Every finding carries a \`code\`: a stable identifier in upper snake case (\`AREA_WHAT\`, e.g.
\`META_EDITING_SOFTWARE\`, \`PDF_CHANGED_AFTER_SIGNATURE\`, \`CROSS_IBAN_MISMATCH\`) that integrations can
key on. Title and explanation are in the request's language; the code is the same in every language
and does not change between releases (a new detector adds codes, it does not rename them). The list
below is generated from the one registry, \`src/scanner/finding-codes.ts\`, which \`Finding.code\` is typed
from (a code not in it does not compile); /openapi.json shows the same table on the \`FindingCode\`
schema. "levels" are the levels a finding with that code can have; \`-\` means "not assessed" (the
finding says why). Codes of \`cross_file_analyses.findings\` start with \`CROSS_\`.

Regenerate with \`node --import tsx scripts/docs/finding-codes.ts\`.
`;

writeDocSection("docs/forensics.md", "finding-codes", `${intro}\n${findingCodesTable()}`);
