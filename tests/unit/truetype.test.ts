// The TrueType subsetter behind the Factur-X PDF's embedded fonts (decision
// 052): a subset keeps each character's glyph and advance, the parts of
// composite glyphs (é, Ü are built from e, u and an accent), nothing else,
// and is a well-formed font file (table checksums, head's checkSumAdjustment).
import { describe, expect, it } from 'vitest';
import { REGULAR } from '../../app/lib/pdf/fonts/dejavu.ts';
import { parseTrueType, subsetTrueType } from '../../app/lib/pdf/truetype.ts';

const source = parseTrueType(Uint8Array.from(atob(REGULAR), (char) => char.charCodeAt(0)));
const chars = (text: string) => Array.from(text, (char) => char.codePointAt(0)!);

function sum(bytes: Uint8Array, from = 0, length = bytes.length): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (let i = from; i < from + length; i += 4) {
    let word = 0;
    for (let k = 0; k < 4; k++) word = (word << 8) | (i + k < from + length ? view.getUint8(i + k) : 0);
    total = (total + (word >>> 0)) >>> 0;
  }
  return total;
}

describe('subsetTrueType', () => {
  const text = 'Aé€Ü ';
  const subset = subsetTrueType(source, chars(text));
  const font = parseTrueType(subset);

  it('keeps each character with its advance, and only what it needs', () => {
    expect(source.postscriptName).toBe('DejaVuSans');
    for (const codePoint of chars(text)) {
      expect(font.glyphOf(codePoint), String.fromCodePoint(codePoint)).not.toBe(0);
      expect(font.advance(font.glyphOf(codePoint))).toBe(source.advance(source.glyphOf(codePoint)));
    }
    expect(font.glyphOf('B'.codePointAt(0)!)).toBe(0);
    // .notdef, five characters, and the parts of the composite ones.
    expect(font.numGlyphs).toBeGreaterThanOrEqual(6);
    expect(font.numGlyphs).toBeLessThan(12);
    expect(font.unitsPerEm).toBe(source.unitsPerEm);
  });

  it("points composite glyphs' parts at glyphs the subset has", () => {
    const view = new DataView(subset.buffer);
    const loca = font.tables.get('loca')!.offset;
    const glyf = font.tables.get('glyf')!.offset;
    let composites = 0;
    for (let glyph = 0; glyph < font.numGlyphs; glyph++) {
      const start = glyf + view.getUint32(loca + glyph * 4);
      const end = glyf + view.getUint32(loca + glyph * 4 + 4);
      if (end - start < 10 || view.getInt16(start) >= 0) continue;
      composites++;
      for (let p = start + 10; ; ) {
        const flags = view.getUint16(p);
        const part = view.getUint16(p + 2);
        expect(part).toBeLessThan(font.numGlyphs);
        expect(view.getUint32(loca + part * 4 + 4) - view.getUint32(loca + part * 4)).toBeGreaterThan(0);
        p += 4 + (flags & 1 ? 4 : 2) + (flags & 8 ? 2 : flags & 0x40 ? 4 : flags & 0x80 ? 8 : 0);
        if (!(flags & 0x20)) break;
      }
    }
    expect(composites).toBeGreaterThan(0);
  });

  it('is a well-formed sfnt: table checksums and the whole-file checksum adjustment', () => {
    const view = new DataView(subset.buffer);
    for (let i = 0; i < view.getUint16(4); i++) {
      const record = 12 + i * 16;
      const tag = String.fromCharCode(...subset.subarray(record, record + 4));
      const offset = view.getUint32(record + 8);
      const length = view.getUint32(record + 12);
      expect(offset % 4, tag).toBe(0);
      if (tag !== 'head') expect(sum(subset, offset, length), tag).toBe(view.getUint32(record + 4));
    }
    expect(sum(subset)).toBe(0xb1b0afba);
    // The same characters give the same bytes, in any order.
    expect(subsetTrueType(source, chars(text).reverse())).toEqual(subset);
  });
});
