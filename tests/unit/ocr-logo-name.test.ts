// The sender's name read from a PDF's logo (logo-name.ts, decision 102): an
// OCR reading of the first page, in the page image's pixels, with the boxes
// where the PDF's text layer draws its own text. Shapes as tesseract.js gives
// them; the real pages are measured by the extraction bench.
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { layerBoxes } from '~/features/documents/ocr/layer-boxes';
import type { OcrBlock, OcrBox, OcrLine } from '~/features/documents/ocr/layout-text';
import { companyOfBrand, logoLanguages, logoName, logoScale, type PageLayer } from '~/features/documents/ocr/logo-name';

const PAGE_HEIGHT = 2100;

/** A line of words at `top`, `height` high; each word [text, x0] or [text, x0, confidence], 12 px a letter. */
function line(top: number, height: number, words: ([string, number] | [string, number, number])[]): OcrLine {
  const boxes = words.map(([text, x0, confidence = 95]) => ({ text, confidence, bbox: { x0, y0: top, x1: x0 + text.length * 12, y1: top + height } }));
  return { words: boxes, bbox: { x0: boxes[0].bbox.x0, y0: top, x1: boxes.at(-1)!.bbox.x1, y1: top + height } };
}
const block = (...lines: OcrLine[]): OcrBlock => ({ paragraphs: [{ lines }] });
/** The text layer's box around a line's words. */
const layerOf = (...lines: OcrLine[]): OcrBox[] => lines.map((l) => ({ ...l.bbox }));
/** The page's body, lower down: lines the text layer draws (most of a real page's words). */
const BODY = Array.from({ length: 8 }, (_, i) => line(900 + i * 40, 20, [['Item', 90], ['line', 160], [`${i + 1}`, 600], ['10.00', 900]]));
/** A page read by OCR: the blocks given and the body; its layer: the lines given and the body. */
const page = (blocks: OcrBlock[], ...layerLines: OcrLine[]): [OcrBlock[], PageLayer] => [[...blocks, block(...BODY)], layer(layerOf(...layerLines, ...BODY))];
/** A page's text layer of `boxes`, with `text` as its lines. */
const layer = (boxes: OcrBox[], text = ''): PageLayer => ({ boxes, height: PAGE_HEIGHT, text });

describe('logoName', () => {
  it("keeps the words at the top that the text layer does not draw: a two-row logo beside the layer's own text", () => {
    const number = line(160, 20, [['Numéro', 880], ['de', 980], ['facture', 1020]]);
    const street = line(240, 20, [['12', 90], ['avenue', 120], ['Léonard', 200], ['de', 300], ['Vinci', 330]]);
    const logo = block(line(90, 24, [['DE', 226], ['VINCI', 270]]), line(123, 40, [['FABLAB', 226]]));
    expect(logoName(...page([logo, block(number, street)], number, street))).toBe('DE VINCI FABLAB');
  });

  it("takes one column of a row the layer shares ('Kontoauszug 12/2014' beside 'Bank'), and leaves a logo's frame off", () => {
    const title = line(280, 40, [['Kontoauszug', 170], ['12/2014', 330]]);
    const logo = block(line(144, 100, [['|', 1080], ['JK', 1118], ['|', 1300]]), line(273, 55, [['Bank', 1115]]));
    expect(logoName(...page([logo, block(title)], title))).toBe('JK Bank');
  });

  it('stops before a tagline under the name: a longer row is not the name', () => {
    const receipt = line(400, 20, [['EDIT', 90], ['SALE', 150], ['TICKET', 210]]);
    const logo = block(
      line(45, 36, [['Florentino', 192]]),
      line(112, 36, [['Moreno', 217]]),
      line(176, 36, [['García', 241]]),
      line(246, 20, [['Fontanería', 33], ['-', 165], ['Calefacción', 180], ['-', 324], ['Aire', 339], ['Acondicionado', 395]]),
    );
    expect(logoName(...page([logo, block(receipt)], receipt))).toBe('Florentino Moreno García');
  });

  it("leaves out what tesseract is unsure of (a drawing read as letters) and a row further down", () => {
    const title = line(600, 30, [['INVOICE', 90]]);
    const logo = block(line(90, 30, [['$A', 110, 6], ['Nordlicht', 230]]), line(120, 40, [['Ng', 110, 64], ['Design', 230]]), line(400, 30, [['Studio', 230]]));
    expect(logoName(...page([logo, block(title)], title))).toBe('Nordlicht Design');
  });

  it('reads nothing below the top third of the page, nothing the layer covers, and nothing from a scan (no text layer)', () => {
    const low = line(1500, 30, [['Stamp', 100], ['Company', 200]]);
    const covered = line(100, 30, [['Acme', 100], ['GmbH', 170]]);
    expect(logoName(...page([block(low, covered)], covered))).toBeNull();
    expect(logoName([block(line(100, 30, [['Acme', 100], ['GmbH', 170]]))], layer([]))).toBeNull();
    expect(logoName(null, layer(layerOf(covered)))).toBeNull();
  });

  it('names nothing from specks: a row of marks, or digits alone', () => {
    const title = line(600, 30, [['INVOICE', 90]]);
    expect(logoName(...page([block(line(100, 30, [['~', 100], ['//', 130]]), line(140, 30, [['2024', 100]]))], title))).toBeNull();
  });

  it("names nobody with a document's title or a label read from an image ('INVOICE', 'Rechnungsnummer', 'NFSe Nota Fiscal de')", () => {
    expect(logoName(...page([block(line(100, 40, [['INVOICE', 100]]))]))).toBeNull();
    expect(logoName(...page([block(line(100, 40, [['Rechnungsnummer', 100]]))]))).toBeNull();
    expect(logoName(...page([block(line(100, 40, [['NFSe', 100], ['Nota', 160], ['Fiscal', 220], ['de', 300]]))]))).toBeNull();
  });

  it("gives the company a logo's brand stands for when the page's text names it with its legal form", () => {
    const [blocks, text] = page([block(line(100, 40, [['HETZNER', 100], ['ONLINE', 220]]))]);
    expect(logoName(blocks, { ...text, text: 'Rechnung\nHetzner Online GmbH\tIndustriestr. 25\t91710 Gunzenhausen' })).toBe('Hetzner Online GmbH');
  });
});

describe('companyOfBrand', () => {
  it("finds the brand's words followed by a legal form anywhere in a line, run-on forms and all", () => {
    expect(companyOfBrand('QualityHosting', 'Rechnung 4711\n© 2024 QualityHosting AG · Uferweg 40')).toBe('QualityHosting AG');
    expect(companyOfBrand('Festrol.', 'FACTURA\nFestrol Corp Ltd.\tC/ Mayor 1')).toBe('Festrol Corp Ltd.');
    expect(companyOfBrand('Café Müller', 'CAFE MULLER KG\tHauptstraße 1')).toBe('CAFE MULLER KG');
  });

  it('keeps the brand when no line names it with a legal form, or only with a word that is no legal form', () => {
    expect(companyOfBrand('Greenter', 'FACTURA ELECTRÓNICA\nEMPRESA S.A.C')).toBe('Greenter');
    expect(companyOfBrand('Acme', 'Thank you for choosing Acme as your partner')).toBe('Acme');
    expect(companyOfBrand('Acme', 'Acme Online Shop Services GmbH')).toBe('Acme');
  });

  it('reads no logo from a scan whose text layer is only a stamp at its foot: its first line is no logo', () => {
    const stamp = line(2000, 20, [['Scanned', 100], ['with', 200], ['App', 260]]);
    const scanned = block(line(100, 40, [['RECHNUNG', 100]]), line(160, 20, [['Müller', 100], ['GmbH', 190]]), ...BODY.map((l) => ({ ...l })));
    expect(logoName([scanned, block(stamp)], layer(layerOf(stamp)))).toBeNull();
  });

  it("counts a word as the layer's when its items cover it together (one item a letter), and not when they only touch it", () => {
    const word = line(100, 40, [['Harbor', 100]]);
    // Six letters, six items, each a sixth of the word: together the whole word.
    const letters = Array.from({ length: 6 }, (_, i) => ({ x0: 100 + i * 12, y0: 100, x1: 112 + i * 12, y1: 140 }));
    expect(logoName([block(word), block(...BODY)], layer([...letters, ...layerOf(...BODY)]))).toBeNull();
    // A box over a fifth of it (a neighbour's descender): still the logo's word.
    const touching = { x0: 100, y0: 132, x1: 172, y1: 140 };
    expect(logoName([block(word), block(...BODY)], layer([touching, ...layerOf(...BODY)]))).toBe('Harbor');
  });
});

/** A one-page PDF made by `draw`, opened by pdf.js (unpdf's build, as the browser's), its first page. */
async function pdfPage(draw: (pdf: PDFDocument) => Promise<void>) {
  const pdf = await PDFDocument.create();
  await draw(pdf);
  return (await getDocumentProxy(new Uint8Array(await pdf.save()))).getPage(1);
}

describe('layerBoxes', () => {
  it('gives each item its box in the drawn page’s pixels, y down, on a page whose box does not start at 0,0', async () => {
    const first = await pdfPage(async (pdf) => {
      const font = await pdf.embedFont(StandardFonts.Helvetica);
      const sheet = pdf.addPage([600, 800]);
      sheet.setMediaBox(100, 200, 600, 800);
      sheet.drawText('Invoice', { x: 150, y: 900, size: 20, font });
    });
    const { boxes, height, text } = await layerBoxes(first, 2);
    expect(height).toBe(1600);
    expect(text).toBe('Invoice');
    // x from 150 − 100, y from the top (200 + 800 − 900), both at twice the size; 'Invoice' at 20 pt is some 65 pt wide.
    expect(boxes).toHaveLength(1);
    expect(boxes[0].x0).toBeCloseTo(100, 0);
    expect(boxes[0].y1).toBeCloseTo(210, 0);
    expect(boxes[0].y0).toBeCloseTo(160, 0);
    expect(boxes[0].x1 - boxes[0].x0).toBeGreaterThan(120);
  });

  it('turns the box of text drawn turned on a page stored turned (a landscape page, /Rotate 90): it reads across', async () => {
    const first = await pdfPage(async (pdf) => {
      const font = await pdf.embedFont(StandardFonts.Helvetica);
      const sheet = pdf.addPage([600, 800]);
      sheet.setRotation(degrees(90));
      // Upright once the page is turned: drawn along the page's y axis.
      sheet.drawText('Harbor Supplies Ltd', { x: 300, y: 100, size: 20, font, rotate: degrees(90) });
    });
    const { boxes } = await layerBoxes(first, 1);
    expect(boxes).toHaveLength(1);
    const [box] = boxes;
    // Across, not down: some 180 pt wide and 25 high.
    expect(box.x1 - box.x0).toBeGreaterThan(150);
    expect(box.y1 - box.y0).toBeLessThan(40);
    expect(box.x0).toBeCloseTo(100, -1);
  });
});

describe('logoScale', () => {
  it('draws a page at 180 dpi, and a poster no larger than 4,000 pixels a side', () => {
    expect(logoScale(595, 842)).toBe(2.5);
    expect(logoScale(2384, 3370)).toBeCloseTo(4000 / 3370);
  });
});

describe('logoLanguages', () => {
  it("reads the logo in the text layer's language, with English; English or an unclear text in English alone", () => {
    expect(logoLanguages('Numéro de facture\nDate de facturation\nMontant total TTC\nMerci pour votre commande')).toBe('fra+eng');
    expect(logoLanguages('Invoice number\nTotal amount due\nThank you for your order')).toBe('eng');
    expect(logoLanguages('')).toBe('eng');
  });
});
