// An OCR reading laid out in rows and columns (layout-text.ts): words as
// tesseract.js gives them in `data.blocks`, with their boxes in pixels.
import { describe, expect, it } from 'vitest';
import { extractFields } from '~/features/documents/extraction/extract-fields';
import { layoutText, type OcrBlock, type OcrLine } from '~/features/documents/ocr/layout-text';

/** A line of words at `top`, `height` high; each word [text, x0], 12 px a letter. */
function line(top: number, height: number, words: [string, number][]): OcrLine {
  const boxes = words.map(([text, x0]) => ({ text, bbox: { x0, y0: top, x1: x0 + text.length * 12, y1: top + height } }));
  return { words: boxes, bbox: { x0: boxes[0].bbox.x0, y0: top, x1: boxes.at(-1)!.bbox.x1, y1: top + height } };
}
const block = (...lines: OcrLine[]): OcrBlock => ({ paragraphs: [{ lines }] });

describe('layoutText', () => {
  it('puts two blocks side by side on one row, a column apart (a tab)', () => {
    const left = block(line(100, 20, [['Sprzedawca', 50]]), line(130, 20, [['ACME', 50], ['Corp', 110]]));
    const right = block(line(101, 20, [['Nabywca', 600]]), line(131, 20, [['XYZ', 600], ['Ltd', 650]]));
    expect(layoutText([left, right])).toBe('Sprzedawca\tNabywca\nACME Corp\tXYZ Ltd');
  });

  it('keeps two lines of one column apart beside a taller line', () => {
    const left = block(line(100, 60, [['Invoice', 50]]));
    const right = block(line(100, 20, [['Date:', 600], ['2025-12-17', 670]]), line(135, 20, [['Due:', 600], ['2025-12-31', 670]]));
    expect(layoutText([left, right])).toBe('Invoice\tDate: 2025-12-17\nDue: 2025-12-31');
  });

  it('writes a wide gap inside one of tesseract’s lines as a tab, and orders rows top to bottom', () => {
    const rows = block(line(200, 20, [['Total', 50], ['576.00', 500]]), line(100, 20, [['Consulting', 50], ['4', 300], ['480.00', 500]]));
    expect(layoutText([rows])).toBe('Consulting\t4\t480.00\nTotal\t576.00');
  });

  it('reads nothing from no blocks, and leaves out empty words', () => {
    expect(layoutText(null)).toBe('');
    expect(layoutText([block(line(10, 20, [[' ', 10]]))])).toBe('');
  });

  it("lets the extractor read two parties set side by side under their labels", () => {
    const left = block(line(100, 20, [['Seller:', 50]]), line(130, 20, [['Acme', 50], ['GmbH', 110]]));
    const right = block(line(100, 20, [['Bill', 600], ['to:', 655]]), line(130, 20, [['Beta', 600], ['Ltd', 660]]));
    const { fields } = extractFields(`Invoice INV-7\n${layoutText([left, right])}\nTotal 10.00`);
    expect([fields.supplier_name?.value, fields.customer_name?.value]).toEqual(['Acme GmbH', 'Beta Ltd']);
  });
});
