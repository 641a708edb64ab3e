// Reading money and dates as documents write them, in any of the common
// layouts: 1,234.56 · 1.234,56 · 1 234,56 · 1234.56; 2025-03-14 · 14/03/2025 ·
// 03/14/2025 · 14.03.2025 · 14 March 2025 · 3. März 2025 · March 14, 2025 · 14-Mar-2025.

import { CURRENCY_CODES } from '../../../lib/currencies.ts';

/** An amount in the text and the decimal string it stands for ('1234.56'). */
// A plain space groups thousands only with decimals after them ('45 000,00 SEK'); elsewhere a space separates numbers.
// Four decimals are a unit price's ('9,9000'); so are five to eight (an Italian e-invoice's '0,01249724' per kWh).
// Swiss grouping by apostrophe ('CHF 1'234.50').
// Indian lakh grouping ('1,23,456.00') comes first: read as thousands it would stop at '1,23'.
const AMOUNT = /(?<![\d.,])-?(?:\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?|\d{1,3}(?: \d{3})+[.,]\d{2}|(?:\d{1,3}(?:[,.\u00a0\u202f'’]\d{3})+|\d+)(?:[.,](?:\d{4,8}|\d{1,2}))?)(?![\d])/g;

/** '1.234,56' → '1234.56'; null when the text is no amount. */
export function parseAmount(raw: string): string | null {
  let text = raw.replace(/[\u00a0\u202f '’]/g, '').trim();
  if (!/^-?[\d.,]+$/.test(text)) return null;
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  const decimalAt = Math.max(lastComma, lastDot);
  // A separator followed by exactly three digits and used before is a thousands mark, not decimals.
  const tail = decimalAt >= 0 ? text.slice(decimalAt + 1) : '';
  // Unit prices carry four decimals ('41,1765 €'); thousands come in threes.
  const isDecimal = decimalAt >= 0 && (tail.length === 1 || tail.length === 2 || (tail.length >= 4 && tail.length <= 8 && text.indexOf(text[decimalAt]) === decimalAt));
  if (isDecimal) {
    text = text.slice(0, decimalAt).replace(/[.,]/g, '') + '.' + tail;
  } else {
    text = text.replace(/[.,]/g, '');
  }
  const value = Number(text);
  if (!Number.isFinite(value)) return null;
  // A unit price of five to eight decimals keeps them: rounded to cents, quantity × price no longer gives the row's amount.
  if (isDecimal && tail.length > 4) return value.toFixed(tail.length).replace(/(\.\d\d\d*?)0+$/, '$1');
  return value.toFixed(2);
}

/** Every amount in a line, left to right, as decimal strings. */
export function amountsIn(line: string): string[] {
  // Dates and percentages are not amounts.
  const cleaned = line
    .replace(/\b\d{1,4}[-/.]\d{1,2}[-/.]\d{2,4}\b/g, ' ')
    // A date with its month in words: its year is no amount ('due by October 31, 2025.').
    .replace(/\b(?:\d{1,2}\.?\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?\d{4}\b/gi, ' ')
    .replace(/\b\d+(?:[.,]\d+)?\s?%/g, ' ')
    // TeX typesets a comma in a number with space after it ('$1, 034.00'): after a currency sign it still groups thousands.
    .replace(/([$€£¥₹]\s?\d{1,3})((?:, \d{3})+)(?=\.\d{2}(?!\d))/gu, (_, head: string, groups: string) => head + groups.replace(/ /g, ''));
  const found: string[] = [];
  for (const [match] of cleaned.matchAll(AMOUNT)) {
    const amount = parseAmount(match);
    if (amount !== null) found.push(amount);
  }
  return found;
}

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
  januar: 1, februar: 2, märz: 3, maerz: 3, mai: 5, juni: 6, juli: 7, okt: 10, dez: 12,
  janvier: 1, février: 2, fevrier: 2, mars: 3, avril: 4, juin: 6, juillet: 7, août: 8, aout: 8, septembre: 9, octobre: 10, novembre: 11, décembre: 12, decembre: 12,
  enero: 1, febrero: 2, marzo: 3, abril: 4, mayo: 5, junio: 6, julio: 7, agosto: 8, septiembre: 9, setiembre: 9, octubre: 10, noviembre: 11, diciembre: 12,
  gennaio: 1, febbraio: 2, aprile: 4, maggio: 5, giugno: 6, luglio: 7, settembre: 9, ottobre: 10, dicembre: 12, gen: 1, mag: 5, giu: 6, lug: 7, ago: 8, set: 9, ott: 10, dic: 12,
  januari: 1, februari: 2, maart: 3, mei: 5, augustus: 8, oktober: 10, december: 12, mrt: 3,
  janeiro: 1, fevereiro: 2, março: 3, marco: 3, maio: 5, junho: 6, julho: 7, setembro: 9, outubro: 10, novembro: 11, dezembro: 12, fev: 2, out: 10,
  stycznia: 1, lutego: 2, marca: 3, kwietnia: 4, maja: 5, czerwca: 6, lipca: 7, sierpnia: 8, września: 9, wrzesnia: 9, października: 10, pazdziernika: 10, listopada: 11, grudnia: 12,
  styczeń: 1, luty: 2, marzec: 3, kwiecień: 4, maj: 5, czerwiec: 6, lipiec: 7, sierpień: 8, wrzesień: 9, październik: 10, listopad: 11, grudzień: 12,
  // The same without their accents, as OCR and plain keyboards write them.
  styczen: 1, kwiecien: 4, sierpien: 8, wrzesien: 9, pazdziernik: 10, grudzien: 12,
};

function monthOf(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  return MONTHS[w] ?? MONTHS[w.slice(0, 3)] ?? null;
}

function iso(year: number, month: number, day: number): string | null {
  if (year < 100) year += 2000;
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1990 || year > 2100) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return date.toISOString().slice(0, 10);
}

const MONTH_WORD = '([A-Za-zäéûçóśźńłęąÄÉÇÓŚŹ]{3,12}\\.?)';
const DATE_PATTERNS: { re: RegExp; read: (m: RegExpExecArray, monthFirst: boolean) => string | null }[] = [
  // (With its time as ISO 8601 writes it: '2017-07-05T09:09:23'.)
  { re: /\b(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?:\b|(?=T\d{2}:))/g, read: (m) => iso(+m[1], +m[3], +m[4]) },
  {
    re: /\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b/g,
    read: (m, monthFirst) => {
      // Two different separators make a number, not a date ('1/12-2025': the first invoice of December 2025).
      const separators = m[0].replace(/\d/g, '');
      if (separators[0] !== separators[1]) return null;
      const a = +m[1];
      const b = +m[2];
      // Unambiguous when one part cannot be a month; else the document's convention.
      if (a > 12) return iso(+m[3], b, a);
      if (b > 12) return iso(+m[3], a, b);
      return monthFirst && m[0].includes('/') ? iso(+m[3], a, b) : iso(+m[3], b, a);
    },
  },
  { re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th|\\.)?[ -]${MONTH_WORD}[-, ]+(\\d{4})\\b`, 'g'), read: (m) => withMonth(m[2], +m[3], +m[1]) },
  { re: new RegExp(`\\b${MONTH_WORD} (\\d{1,2})(?:st|nd|rd|th)? ?,? (\\d{4})\\b`, 'g'), read: (m) => withMonth(m[1], +m[3], +m[2]) },
  // '3 de marzo de 2025', '3 de março de 2025'
  { re: new RegExp(`\\b(\\d{1,2}) de ${MONTH_WORD} de (\\d{4})\\b`, 'g'), read: (m) => withMonth(m[2], +m[3], +m[1]) },
];

function withMonth(word: string, year: number, day: number): string | null {
  const month = monthOf(word);
  return month ? iso(year, month, day) : null;
}

/** Every date in a line, left to right, as YYYY-MM-DD; `monthFirst` reads 03/04/2025 as March 4th (US documents). */
export function datesIn(line: string, monthFirst = false): string[] {
  const found: { at: number; date: string }[] = [];
  for (const { re, read } of DATE_PATTERNS) {
    for (const match of line.matchAll(re)) {
      const date = read(match as RegExpExecArray, monthFirst);
      if (date && !found.some((f) => Math.abs(f.at - (match.index ?? 0)) < 4)) found.push({ at: match.index ?? 0, date });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.date);
}

/**
 * Whether a quantity times a price comes to an amount: within a cent (`slack`; a cent more where the amount includes a tax
 * rounded to cents) or a thousandth of the amount (a long quantity's product is rounded to the amount's cents).
 */
export function multipliesTo(quantity: number, price: number, amount: number, slack = 0.01): boolean {
  return Math.abs(quantity * price - amount) <= Math.max(slack, Math.abs(amount) * 0.001);
}

/** ISO codes a document may name (the product's one list, app/lib/currencies.ts), and the symbols that stand for one. */
export { CURRENCY_CODES };
export const CURRENCY_SYMBOLS: [RegExp, string][] = [
  // Before the dollar: 'R$ 689,91' is Brazil's real.
  [/R\$/, 'BRL'],
  [/(?:A\$|AU\$)/, 'AUD'],
  [/(?:C\$|CA\$)/, 'CAD'],
  [/(?:NZ\$)/, 'NZD'],
  [/(?:S\$)/, 'SGD'],
  [/(?:US\$|\$)/, 'USD'],
  [/€/, 'EUR'],
  [/£/, 'GBP'],
  [/¥/, 'JPY'],
  [/₹|\bRs\.?\s?(?=\d)|\bINR\b/, 'INR'],
  [/\bzł/, 'PLN'],
  [/\bFr\.\s?\d/, 'CHF'],
  [/\bKč/, 'CZK'],
  // The sol's 'S/' or 'S/.' before its amount ('S/ 50.00', 'S/. 236.00'), and its name as Peruvian invoices print it ('SON: …
  // SOLES', 'Nuevos Soles'); not the English word ('new soles').
  [/(?<![\p{L}\d/])S\/\.?\s?(?=\d)|\b(?:SOLES|[Nn]uevos\s+[Ss]oles)\b/u, 'PEN'],
];

/** Codes that are words too ('BLUE PEN 0.7MM'): such a code names its currency only beside an amount ('PEN 1,200.00'). */
const WORD_CODES = new Set(['PEN']);
const CODE_AMOUNT = "(?:\\d{1,3}(?:[.,' ]\\d{3})+|\\d+)[.,]\\d{2}(?!\\d)";

/**
 * '$' alone is the dollar or the peso of some twenty countries, so a bare '$' says USD only as a guess. The document's
 * own words may say which: a country's name, its tax ids ('ABN', 'CUIT', 'RFC'), its postcodes ('NSW 2000', 'K1A 0B1').
 */
const DOLLAR_COUNTRIES: [RegExp, string][] = [
  [/\bAustralia\b|\bABN\b|\b(?:NSW|VIC|QLD|TAS)\s+\d{4}\b/, 'AUD'],
  [/\bCanada\b|\bGST\/HST\b|\bHST\b|\b[A-Z]\d[A-Z] \d[A-Z]\d\b/, 'CAD'],
  [/\bNew\s+Zealand\b/, 'NZD'],
  [/\bSingapore\b/, 'SGD'],
  [/\bHong\s+Kong\b/, 'HKD'],
  [/\bM[ée]xico\b|\bRFC\b/, 'MXN'],
  [/\bArgentina\b|\bCUIT\b/, 'ARS'],
  [/\bChile\b/, 'CLP'],
  [/\bColombia\b/, 'COP'],
];
/** Every currency the signs and the dollar's countries can give: each must be on the product's list (a unit test holds it). */
export const READABLE_CURRENCIES = [...new Set([...CURRENCY_SYMBOLS.map(([, code]) => code), ...DOLLAR_COUNTRIES.map(([, code]) => code)])];
/** A dollar named outright: the code of USD or of a country above, or a sign with its country's letters ('C$', 'US$'). */
const NAMED_DOLLAR = new RegExp(`\\b(?:${['USD', ...DOLLAR_COUNTRIES.map(([, code]) => code)].join('|')})\\b|[A-Z]{1,2}\\$`);
/** Words that place a document in the United States ('NY 10012', 'USA', 'LLC'). */
const UNITED_STATES = /\b(?:USA|U\.S\.A\.|United\s+States|LLC)\b|,\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?\b/;

/**
 * Which dollar a document's bare '$' is: USD, sure, where its words place it in the United States and nowhere else;
 * another country's where they name that one alone; else USD as a guess the reader should check.
 */
export function dollarOf(text: string): { code: string; sure: boolean } {
  const us = UNITED_STATES.test(text);
  const other = DOLLAR_COUNTRIES.filter(([words]) => words.test(text)).map(([, code]) => code);
  if (other.length === 1 && !us) return { code: other[0], sure: false };
  return { code: 'USD', sure: us && other.length === 0 };
}

/** Whether a document writes its dollar as a bare '$' only (no 'USD', 'US$', 'C$' and the like). */
export function bareDollar(text: string): boolean {
  return /\$/.test(text) && !NAMED_DOLLAR.test(text);
}

/** Each code's pattern, made once (currenciesIn runs on every line of a document). */
const CODE_PATTERNS = CURRENCY_CODES.map((code): [RegExp, string] => [
  new RegExp(WORD_CODES.has(code) ? `\\b${code}\\s?${CODE_AMOUNT}|(?<![\\d.,])${CODE_AMOUNT}\\s?${code}\\b` : `\\b${code}\\b`),
  code,
]);

/** The currencies a line names, codes before symbols. */
export function currenciesIn(line: string): string[] {
  const found: string[] = [];
  for (const [pattern, code] of CODE_PATTERNS) if (pattern.test(line)) found.push(code);
  let rest = line;
  for (const [symbol, code] of CURRENCY_SYMBOLS) {
    if (symbol.test(rest)) {
      if (!found.includes(code)) found.push(code);
      rest = rest.replace(new RegExp(symbol.source, `${symbol.flags.replace('g', '')}g`), ' ');
    }
  }
  return found;
}
