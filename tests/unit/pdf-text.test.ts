// The rule for text the standard fonts cannot draw (app/lib/pdf/winansi.ts).
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { isWinAnsi, safeLine, safeText } from '../../app/lib/pdf/winansi.ts';

describe('safe text for the standard fonts', () => {
  it('knows exactly the characters pdf-lib can encode with Helvetica', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const pdfLib = new Set(font.getCharacterSet());
    for (let codePoint = 0; codePoint <= 0x2fff; codePoint++) {
      const char = String.fromCodePoint(codePoint);
      // pdf-lib lists the control characters too, but draws them as nothing useful.
      const expected = pdfLib.has(codePoint) && codePoint >= 0x20 && codePoint !== 0x7f;
      expect(isWinAnsi(char), `U+${codePoint.toString(16)}`).toBe(expected);
    }
  });

  it('leaves plain Latin text as it is', () => {
    expect(safeText('Café — “crème” €5 ½')).toBe('Café — “crème” €5 ½');
  });

  it('joins a letter and its combining accent into the WinAnsi letter', () => {
    expect(safeLine('Cafe\u0301')).toBe('Café');
  });

  it('drops accents WinAnsi lacks and stands in "?" for other scripts, one per character seen', () => {
    expect(safeLine('Dvořák ő')).toBe('Dvorák o');
    expect(safeLine('北京')).toBe('??');
    expect(safeLine('שלום')).toBe('????');
    expect(safeLine('👍🏽 👨‍👩‍👧 🖊️')).toBe('? ? ?');
  });

  it('turns unusual spaces, tabs and controls into spaces, and drops invisible marks', () => {
    expect(safeLine('9:24\u202FAM\ta\u0007b')).toBe('9:24 AM a b');
    expect(safeLine('zero\u200Bwidth \u200Fmark')).toBe('zerowidth mark');
    expect(safeLine('a \u2212 b')).toBe('a - b');
  });

  it('keeps line breaks in text and makes them spaces in a line', () => {
    expect(safeText('one\r\ntwo\nthree')).toBe('one\ntwo\nthree');
    expect(safeLine('one\ntwo')).toBe('one two');
  });
});
