/** Names of image editors and processing tools as they appear in Software/CreatorTool/history. */
export const EDITOR_PATTERN =
  /photoshop|gimp|lightroom|affinity|pixelmator|paint\.net|paintshop|paint shop|snapseed|picasa|photo gallery|windows photo|windows live photo|photos? editor|canva|fotor|luminar|capture one|darktable|rawtherapee|acdsee|irfanview|xnview|photoscape|imagemagick|graphicsmagick|fireworks|corel|facetune|meitu|picsart|vsco|photodirector|dxo|skylum|krita|painttool|photopea|befunky|photofiltre|digikam|shotwell|aperture|iphoto/i;

/** The editor name in `value`, or null when it names none (camera firmware, OS versions). */
export function editorIn(value: string | null | undefined): string | null {
  if (!value) return null;
  return EDITOR_PATTERN.test(value) ? value : null;
}
