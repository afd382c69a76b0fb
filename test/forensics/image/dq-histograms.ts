// The 20 modelled frequencies' coefficient histograms of shared JPEGs and their last quantisation steps, as jpeg-dq
// fits them (the double-quantisation tests' photo inputs).
import { dctBlocks, DQ_FREQUENCIES, DQ_RANGE } from "../../../src/scanner/forensics/jpeg-dct-blocks";
import { ZIGZAG } from "../../../src/scanner/images/jpeg-markers";
import { sharedFile } from "./fixtures";

export interface FrequencyHistogram {
  h: Int32Array;
  q2: number;
  label: string;
}

export async function photoHistograms(paths: readonly string[]): Promise<FrequencyHistogram[]> {
  const out: FrequencyHistogram[] = [];
  for (const path of paths) {
    const decoded = await dctBlocks(await sharedFile(path));
    if (!decoded.ok) throw new Error(path);
    const { histograms, table } = decoded.blocks;
    const bins = 2 * DQ_RANGE + 1;
    for (let f = 0; f < DQ_FREQUENCIES; f++)
      out.push({
        h: histograms.slice(f * bins, (f + 1) * bins),
        q2: table[ZIGZAG[f + 1]],
        label: `${path} frequency ${f}`,
      });
  }
  return out;
}
