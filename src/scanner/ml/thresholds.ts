/**
 * Decision thresholds of the learned detectors, kept apart from the analyzers so `npm run eval`
 * (Node) can import them. The figures that justify them are in docs/forensics.md (section ml-models)
 * and the model cards.
 */

/**
 * Recapture image score (model 1.1.0). The network's output is not a calibrated probability: on
 * held-out real and confounder patches 9 % score ≥ 0.5, but only 0.3 % ≥ 0.9 and 0.2 % ≥ 0.95; the
 * highest whole real photo of shared/data scores 0.94 (training) / 0.88 (held-out). So Yellow starts
 * at 0.9 and Red at 0.95 (about half of the simulated recaptures score above those; the rest —
 * defocused or very fine screens — are missed).
 */
export const RECAPTURE_THRESHOLDS = { yellow: 0.9, red: 0.95 };

/**
 * Manipulation image score (highest tile) at or above which the model's opinion is reported as
 * Yellow. The model is weak at image level (held-out tile AUC ≈ 0.64): whole real photos reach 0.87
 * (held-out) and 0.92 (training photos), so only ≥ 0.9 is reported, which catches few edits (≈ 2.5 %
 * of edited held-out tiles). Its value is the heatmap (cell AUC ≈ 0.80). It never raises Red on its own.
 */
export const MANIPULATION_YELLOW = 0.9;

/**
 * Heatmap cells. On held-out clean tiles 90 % of cells score below 0.45 and 99 % below 0.61; inside
 * edited regions the median is 0.41 and 10 % exceed 0.61. The heatmap therefore shows 0.45 → 0.85 as
 * its blue → red ramp (below 0.45 = nothing remarkable), and a cell counts as "marked" from 0.6.
 */
export const MANIPULATION_CELL = { rampFrom: 0.45, rampTo: 0.85, marked: 0.6 };
