// Tax ids a document prints without a label the extractor knows ('DE136695976'
// in a footer, 'Ust-IdNr' misread by OCR): found by the country's own format
// and, where the country publishes one, its check digit, so that an order
// number or a fragment of an IBAN that happens to start with two capitals is
// not taken for one. The formats are the EU's VIES formats, the Swiss UID and
// India's GSTIN.

/** A country's VAT id as printed: the code, then its digits in the country's format (spaces, dots or dashes between groups). */
const CANDIDATE = /(?<![A-Z0-9])(?:(AT)\s?(U[\d ]{8,11})|(BE)\s?([01][\d .]{9,12})|(DE)\s?(\d[\d ]{8,11})|(DK)\s?(\d[\d ]{7,10})|(ES)\s?([A-Z0-9]\d{7}[A-Z0-9])|(FR)\s?([0-9A-Z]{2}\s?\d[\d ]{8,11})|(GB)\s?(\d[\d ]{8,14})|(IT)\s?(\d[\d ]{10,13})|(LU)\s?(\d{8})|(NL)\s?(\d{9}\s?B\d{2})|(PL)\s?(\d[\d -]{9,13})|(PT)\s?(\d[\d ]{8,11})|(SE)\s?(\d[\d ]{11,14})|(CHE)[-\s]?(\d{3}[.\s]?\d{3}[.\s]?\d{3})|(\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]))(?![A-Z0-9]|[ .-]\d)/g;

const LENGTH: Record<string, number> = { AT: 8, BE: 10, DE: 9, DK: 8, ES: 9, FR: 11, GB: 9, IT: 11, LU: 8, NL: 12, PL: 10, PT: 9, SE: 12, CHE: 9 };

const digitsOf = (value: string) => [...value].map(Number);

/** ISO 7064 MOD 11,10 (Germany). */
function germanCheck(digits: number[]): boolean {
  let product = 10;
  for (const digit of digits.slice(0, 8)) {
    let sum = (digit + product) % 10;
    if (sum === 0) sum = 10;
    product = (2 * sum) % 11;
  }
  return (11 - product) % 10 === digits[8];
}

/** Luhn (Italy's partita IVA). */
function luhn(digits: number[]): boolean {
  const sum = digits.reduce((total, digit, i) => total + (i % 2 === 1 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit), 0);
  return sum % 10 === 0;
}

/** A weighted sum modulo 11 over all but the last digit (Poland, Portugal, the Netherlands' older numbers). */
function weighted(digits: number[], weights: number[]): number {
  return weights.reduce((total, weight, i) => total + weight * digits[i], 0) % 11;
}

/** Whether a candidate's digits pass its country's check, where there is one; the others pass on their format alone. */
function passes(country: string, body: string): boolean {
  const compact = body.replace(/[\s.-]/g, '');
  if (compact.length !== LENGTH[country] && !(country === 'GB' && compact.length === 12)) return false;
  const digits = digitsOf(compact);
  switch (country) {
    case 'DE':
      return germanCheck(digits);
    case 'IT':
      return luhn(digits);
    case 'BE':
      return 97 - (Number(compact.slice(0, 8)) % 97) === Number(compact.slice(8));
    case 'PL':
      return weighted(digits, [6, 5, 7, 2, 3, 4, 5, 6, 7]) === digits[9];
    case 'PT': {
      const check = 11 - weighted(digits, [9, 8, 7, 6, 5, 4, 3, 2]);
      return (check >= 10 ? 0 : check) === digits[8];
    }
    case 'FR': {
      // The two-character key is computed from the SIREN when it is numeric.
      if (!/^\d{2}/.test(compact)) return /^\d{9}$/.test(compact.slice(2));
      return Number(compact.slice(0, 2)) === (12 + 3 * (Number(compact.slice(2)) % 97)) % 97;
    }
    case 'NL': {
      // Older numbers carry a check digit; sole traders' numbers since 2020 pass ISO 7064 MOD 97-10 over the whole id.
      const number = digitsOf(compact.slice(0, 9));
      if (weighted(number, [9, 8, 7, 6, 5, 4, 3, 2]) === number[8]) return true;
      const numeric = `2321${compact.slice(0, 9)}11${compact.slice(10)}`;
      return BigInt(numeric) % 97n === 1n;
    }
    default:
      return true;
  }
}

/**
 * The VAT ids in a text, as printed, each with its line, in the order read;
 * at most `limit`. Linear in the text: one pass of a pattern with no nested
 * repetition.
 */
export function unlabelledVatIds(lines: readonly { text: string }[], limit = 20): { value: string; index: number }[] {
  const found: { value: string; index: number }[] = [];
  for (let index = 0; index < lines.length && found.length < limit; index += 1) {
    for (const match of lines[index].text.matchAll(CANDIDATE)) {
      const groups = match.slice(1).filter((group) => group !== undefined);
      const gstin = groups.length === 1;
      if (!gstin && !passes(groups[0], groups[1].replace(/^U/, ''))) continue;
      found.push({ value: match[0].trim(), index });
      if (found.length >= limit) break;
    }
  }
  return found;
}
