// The PDFs use the standard fonts (Helvetica, Courier), which encode only
// WinAnsi (Windows-1252): Latin letters, Western punctuation, € £ ¥. pdf-lib
// throws on anything else, and names, descriptions and notes can be in any
// script. Every string is made safe here before it is measured or drawn:
// - Unicode NFC first, so a letter typed with a combining accent becomes the
//   single WinAnsi character it has (e + ◌́ → é);
// - every space separator (no-break, narrow, ideographic) becomes a space;
//   tabs and other control characters too; line breaks stay where asked;
// - a few common signs without a WinAnsi form get their ASCII look-alike
//   (minus → -, non-breaking hyphen → -);
// - invisible formatting (zero-width joiners, direction marks) is dropped;
// - a letter with an accent WinAnsi lacks loses the accent (ő → o; ł has no
//   accent to lose and becomes ?);
// - anything else (Chinese, Arabic, Hebrew, emoji, ...) becomes one '?' per
//   character as a reader sees it (one per emoji, however many code points).
// The stored data keeps the original text; only the PDF shows the stand-in.

const LOOK_ALIKES: Record<string, string> = {
  '\u2212': '-', // minus sign
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '-', // figure dash
  '\u2032': "'", // prime
  '\u2033': '"', // double prime
  '\u2044': '/', // fraction slash
  '\u2215': '/', // division slash
  '\u2217': '*', // asterisk operator
};

// WinAnsi: printable ASCII, Latin-1 from the no-break space up, and the 27
// characters Windows-1252 puts in 0x80–0x9F. tests/unit/pdf-text.test.ts
// checks this against pdf-lib's own table for Helvetica.
const WINDOWS_1252_EXTRAS = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

function isEncodable(codePoint: number): boolean {
  return (codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff) || WINDOWS_1252_EXTRAS.includes(String.fromCodePoint(codePoint));
}

function canEncode(text: string): boolean {
  for (const char of text) {
    if (!isEncodable(char.codePointAt(0)!)) return false;
  }
  return true;
}

/** Whether pdf-lib can draw this one character with a standard font. */
export function isWinAnsi(char: string): boolean {
  return [...char].length === 1 && isEncodable(char.codePointAt(0)!);
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const SPACE = /\p{Zs}/gu;
const CONTROL = /[\p{Cc}\u2028\u2029]/gu;
const INVISIBLE = /\p{Cf}/gu;
const MARKS = /\p{M}/gu;

function safeGrapheme(grapheme: string): string {
  if (canEncode(grapheme)) return grapheme;
  const lookAlike = LOOK_ALIKES[grapheme];
  if (lookAlike !== undefined) return lookAlike;
  const visible = grapheme.replace(INVISIBLE, '');
  if (visible === '') return '';
  if (canEncode(visible)) return visible;
  const unaccented = visible.normalize('NFKD').replace(MARKS, '');
  if (unaccented !== '' && canEncode(unaccented)) return unaccented;
  return '?';
}

/** One line of text, safe to draw: line breaks become spaces. */
export function safeLine(text: string): string {
  return safeText(text.replace(/\r\n?|\n/g, ' '));
}

/** Text safe to draw, keeping its line breaks (as \n). */
export function safeText(text: string): string {
  const normalized = text.normalize('NFC').replace(/\r\n?/g, '\n');
  // Fast path: plain Latin text, the common case, is returned as it is.
  if (canEncode(normalized.replace(/\n/g, ' '))) return normalized;
  const lines = normalized.split('\n').map((line) => {
    let out = '';
    for (const { segment } of segmenter.segment(line.replace(SPACE, ' ').replace(CONTROL, ' '))) {
      out += safeGrapheme(segment);
    }
    return out;
  });
  return lines.join('\n');
}
