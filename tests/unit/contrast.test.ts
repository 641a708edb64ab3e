// The text colour on a seller's accent colour keeps WCAG AA contrast (4.5:1)
// whatever colour the seller chose (decision 051).
import { describe, expect, it } from 'vitest';
import { AA_NORMAL_TEXT, contrastRatio, relativeLuminance, textColorOn } from '../../app/lib/contrast';

describe('contrast', () => {
  it('computes WCAG luminance and ratios', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#FFFFFF')).toBe(1);
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#ffffff', '#000000')).toBe(21);
    // A known pair: #767676 on white is the lightest grey that passes AA.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(() => relativeLuminance('red')).toThrow();
  });

  it('puts white text on dark accents and black text on light ones', () => {
    for (const dark of ['#000000', '#1d4ed8', '#7f1d1d', '#4b0082', '#0f766e']) expect(textColorOn(dark), dark).toBe('#ffffff');
    for (const light of ['#ffffff', '#fde047', '#a7f3d0', '#f0f0f0', '#00ff00', '#ff9900']) expect(textColorOn(light), light).toBe('#000000');
  });

  it('reaches AA for every colour, the mid-tones where neither wins by much included', () => {
    let worst = 21;
    for (let r = 0; r < 256; r += 15) {
      for (let g = 0; g < 256; g += 15) {
        for (let b = 0; b < 256; b += 15) {
          const hex = `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
          worst = Math.min(worst, contrastRatio(hex, textColorOn(hex)));
        }
      }
    }
    for (const mid of ['#767676', '#777777', '#808080', '#ff0000', '#e11d48', '#0088ff']) {
      expect(contrastRatio(mid, textColorOn(mid)), mid).toBeGreaterThanOrEqual(AA_NORMAL_TEXT);
    }
    expect(worst).toBeGreaterThanOrEqual(AA_NORMAL_TEXT);
  });
});
