// Fonts embedded in the PDF (decision 052), for a document that must carry
// its fonts (PDF/A-3, the Factur-X invoice): DejaVu Sans, regular, bold and
// oblique, as simple TrueType fonts with WinAnsiEncoding. pdf-lib embeds
// custom fonts only through @pdf-lib/fontkit (not installed), so this is a
// pdf-lib standard-font embedder (its WinAnsi encoding, which winansi.ts
// already keeps every string within) whose metrics and font program are
// DejaVu's: text is measured with the widths the embedded program draws, and
// only the characters a document used go into it (subset at save time).
import { type PDFDocument, PDFFont, type PDFRef, StandardFontEmbedder, StandardFonts, type PDFContext, type PDFHexString } from 'pdf-lib';
import { BOLD, ITALIC, REGULAR } from './fonts/dejavu.ts';
import type { Fonts } from './layout.ts';
import { parseTrueType, subsetTrueType, type TrueType } from './truetype.ts';

type Face = 'regular' | 'bold' | 'italic';
const SOURCES: Record<Face, string> = { regular: REGULAR, bold: BOLD, italic: ITALIC };
const parsed = new Map<Face, TrueType>();

function face(name: Face): TrueType {
  let font = parsed.get(name);
  if (!font) {
    font = parseTrueType(Uint8Array.from(atob(SOURCES[name]), (char) => char.charCodeAt(0)));
    parsed.set(name, font);
  }
  return font;
}

// pdf-lib's StandardFontEmbedder has a private constructor in its types only;
// PDFFont accepts nothing but its instances (or fontkit's), hence the subclass.
const StandardEmbedder = StandardFontEmbedder as unknown as new (name: StandardFonts) => StandardFontEmbedder;

/** A six-letter subset tag (ISO 32000 9.6.4) from the characters used: the same document gives the same name. */
function subsetTag(codePoints: number[]): string {
  let hash = 2166136261;
  for (const codePoint of codePoints) hash = Math.imul(hash ^ codePoint, 16777619) >>> 0;
  let tag = '';
  for (let i = 0; i < 6; i++, hash = Math.floor(hash / 26)) tag += String.fromCharCode(65 + (hash % 26));
  return `${tag}+`;
}

class TrueTypeEmbedder extends StandardEmbedder {
  private readonly used = new Set<number>();
  private readonly truetype: TrueType;
  private readonly scale: number;

  constructor(truetype: TrueType) {
    super(StandardFonts.Helvetica);
    this.truetype = truetype;
    this.scale = 1000 / truetype.unitsPerEm;
    (this as { fontName: string }).fontName = truetype.postscriptName;
  }

  private codePoints(text: string): number[] {
    // WinAnsi's own check: anything it cannot encode throws here as it would for Helvetica.
    return Array.from(text, (char) => this.unicodeOf(this.encoding.encodeUnicodeCodePoint(char.codePointAt(0)!).code));
  }

  private unicodeOf(code: number): number {
    return WIN_ANSI_TO_UNICODE.get(code) ?? code;
  }

  private width(codePoint: number): number {
    return this.truetype.advance(this.truetype.glyphOf(codePoint)) * this.scale;
  }

  override encodeText(text: string): PDFHexString {
    for (const codePoint of this.codePoints(text)) this.used.add(codePoint);
    return super.encodeText(text);
  }

  override widthOfTextAtSize(text: string, size: number): number {
    return (this.codePoints(text).reduce((sum, codePoint) => sum + this.width(codePoint), 0) * size) / 1000;
  }

  override heightOfFontAtSize(size: number, options: { descender?: boolean } = {}): number {
    const { ascender, descender } = this.truetype;
    return ((options.descender === false ? ascender : ascender - descender) * this.scale * size) / 1000;
  }

  override sizeOfFontAtHeight(height: number): number {
    return (1000 * height) / ((this.truetype.ascender - this.truetype.descender) * this.scale);
  }

  override embedIntoContext(context: PDFContext, ref?: PDFRef): PDFRef {
    const font = this.truetype;
    const used = [...this.used].sort((a, b) => a - b);
    const program = subsetTrueType(font, used);
    const name = `${subsetTag(used)}${font.postscriptName}`;
    const fontFile = context.register(context.flateStream(program, { Length1: program.length }));
    const round = (value: number) => Math.round(value * this.scale);
    const descriptor = context.register(
      context.obj({
        Type: 'FontDescriptor',
        FontName: name,
        // Nonsymbolic (32), plus FixedPitch (1) and Italic (64) as the font says.
        Flags: 32 + (font.fixedPitch ? 1 : 0) + (font.italicAngle !== 0 ? 64 : 0),
        FontBBox: font.bbox.map(round),
        ItalicAngle: font.italicAngle,
        Ascent: round(font.ascender),
        Descent: round(font.descender),
        CapHeight: round(font.capHeight),
        StemV: 80,
        FontFile2: fontFile,
      }),
    );
    // Widths of codes 32..255 as the embedded program has them (PDF/A-3 6.2.11.5); 0 for a code not used.
    const widths = Array.from({ length: 224 }, (_, i) => {
      const codePoint = this.unicodeOf(i + 32);
      return this.used.has(codePoint) ? Math.round(this.width(codePoint)) : 0;
    });
    const dict = context.obj({
      Type: 'Font',
      Subtype: 'TrueType',
      BaseFont: name,
      FirstChar: 32,
      LastChar: 255,
      Widths: widths,
      Encoding: 'WinAnsiEncoding',
      FontDescriptor: descriptor,
    });
    if (ref) {
      context.assign(ref, dict);
      return ref;
    }
    return context.register(dict);
  }
}

/** WinAnsi code → Unicode code point, for the codes that differ (128..159); the rest are Latin-1. */
const WIN_ANSI_TO_UNICODE: Map<number, number> = (() => {
  const encoding = StandardFontEmbedder.for(StandardFonts.Helvetica as unknown as Parameters<typeof StandardFontEmbedder.for>[0]).encoding;
  return new Map(encoding.supportedCodePoints.map((codePoint) => [encoding.encodeUnicodeCodePoint(codePoint).code, codePoint]));
})();

function embed(doc: PDFDocument, truetype: TrueType): PDFFont {
  const font = PDFFont.of(doc.context.nextRef(), doc, new TrueTypeEmbedder(truetype));
  // What doc.embedFont does after making its embedder: the font is written when the document is saved.
  (doc as unknown as { fonts: PDFFont[] }).fonts.push(font);
  return font;
}

/** The document's fonts, embedded. The invoice draws nothing in mono (the certificate's hash is a quote's), so mono is the regular face. */
export function embedTrueTypeFonts(doc: PDFDocument): Fonts {
  const regular = embed(doc, face('regular'));
  return { regular, bold: embed(doc, face('bold')), italic: embed(doc, face('italic')), mono: regular };
}
