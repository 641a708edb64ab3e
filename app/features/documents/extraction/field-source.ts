// Where an extracted field came from: the words of the document's text around
// its value, for the review page to show with the value highlighted (issue 32).
// Extraction keeps no positions (fields are `{ value, confidence }`), so the
// source is found again at render: the first occurrence of the value in the
// stored text, as the value is written there — an amount stored as 1430.00
// may read "1.430,00" or "$1,430.00", a date stored as 2025-06-10 may read
// "10/06/2025" or "June 10, 2025", an IBAN may be spaced in groups. Relative
// imports only (unit tests load this).
import type { FieldShape } from './fields';

export interface FieldSource {
  before: string;
  match: string;
  after: string;
}

/** Characters of context on each side of the value: enough to recognise the line, bounded. */
const CONTEXT = 60;
/** Longest value looked for (a pattern per character is cheap, but not for a pasted essay). */
const MAX_VALUE = 200;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** The ways a value of this shape may be written in a document, most literal first. */
function patterns(value: string, shape: FieldShape): RegExp[] {
  const literal = new RegExp(escape(value), 'i');
  if (shape === 'amount') {
    const found = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value);
    if (!found) return [literal];
    const [, , whole, cents = ''] = found;
    // Digits of the whole part with any thousands separator between them, then the cents after either mark.
    const wholePattern = whole.split('').map(escape).join("[.,'\\s\\u00a0]?");
    const centsPattern = cents ? (/^0+$/.test(cents) ? `(?:[.,]${cents.padEnd(2, '0')})?` : `[.,]${cents.padEnd(2, '0')}`) : '';
    return [new RegExp(`(?<![\\d.,])${wholePattern}${centsPattern}(?![\\d])`)];
  }
  if (shape === 'date') {
    const found = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (!found) return [literal];
    const [, y, m, d] = found;
    const dd = `0?${Number(d)}`;
    const mm = `0?${Number(m)}`;
    const month = MONTHS[Number(m) - 1];
    return [
      literal,
      new RegExp(`(?<!\\d)${dd}[./-]${mm}[./-]${y}(?!\\d)`),
      new RegExp(`(?<!\\d)${mm}[./-]${dd}[./-]${y}(?!\\d)`),
      new RegExp(`${month}[a-z]*\\.?\\s+${dd}(?:st|nd|rd|th)?,?\\s+${y}`, 'i'),
      new RegExp(`(?<!\\d)${dd}\\.?\\s+${month}[a-z]*\\.?\\s+${y}`, 'i'),
    ];
  }
  // Anything else as written, spaces inside it free (an IBAN in groups of four, a phone number).
  const spaced = value.replace(/\s+/g, '').split('').map(escape).join('\\s*');
  return [literal, new RegExp(spaced, 'i')];
}

/** Cut to at most CONTEXT characters, at a word where it can, with runs of white space read as one space. */
function clip(text: string, side: 'before' | 'after'): string {
  const flat = text.replace(/\s+/g, ' ');
  if (flat.length <= CONTEXT) return flat;
  const cut = side === 'before' ? flat.slice(-CONTEXT) : flat.slice(0, CONTEXT);
  const space = side === 'before' ? cut.indexOf(' ') : cut.lastIndexOf(' ');
  const word = space > 0 && space < CONTEXT - 10 ? (side === 'before' ? cut.slice(space + 1) : cut.slice(0, space)) : cut;
  return side === 'before' ? `…${word}` : `${word}…`;
}

/** The value's first occurrence in the text with the words around it; null when the text does not have it. */
export function findFieldSource(text: string | null | undefined, value: string | null | undefined, shape: FieldShape): FieldSource | null {
  const wanted = value?.trim();
  if (!text || !wanted || shape === 'kind' || wanted.length > MAX_VALUE) return null;
  for (const pattern of patterns(wanted, shape)) {
    const found = pattern.exec(text);
    if (!found || found[0].length === 0) continue;
    return {
      before: clip(text.slice(0, found.index), 'before'),
      match: found[0].replace(/\s+/g, ' '),
      after: clip(text.slice(found.index + found[0].length), 'after'),
    };
  }
  return null;
}
