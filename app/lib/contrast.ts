// Text on a seller's accent colour (decision 051). A seller picks any colour
// for their brand; the page's header band and main button use it, and the
// text on it must stay readable whatever it is. WCAG 2.x: relative luminance
// of sRGB, contrast (L1 + 0.05) / (L2 + 0.05), AA asks 4.5:1 for normal text.
// Black or white, whichever contrasts more, always reaches it: the two ratios
// meet at a luminance of about 0.18, where both are about 4.58.

export const AA_NORMAL_TEXT = 4.5;

const channel = (value: number) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** The relative luminance of a #rrggbb colour (0 black .. 1 white). */
export function relativeLuminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = match.slice(1).map((part) => channel(parseInt(part, 16)));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two #rrggbb colours (1 .. 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** The text colour for a background of this colour: black or white, whichever contrasts more. */
export function textColorOn(background: string): '#000000' | '#ffffff' {
  return contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff') ? '#000000' : '#ffffff';
}
