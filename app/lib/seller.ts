// The seller on every document (decision 045): the account's identity as a
// quote or invoice prints it. Documents carry it as `seller` (a snapshot taken
// when they were sent, the live account for a draft), in the keys of
// docs/decisions/045 and the accounts columns.

export interface Seller {
  name: string;
  address_line1: string | null;
  address_line2: string | null;
  postal_code: string | null;
  city: string | null;
  region: string | null;
  country: string | null;
  tax_id: string | null;
  company_registration: string | null;
  iban: string | null;
  bic: string | null;
  bank_details: string | null;
  payment_terms: string | null;
  logo_path: string | null;
  accent_color: string | null;
}

/** ISO 3166-1 alpha-2 codes of countries and territories in use. */
export const COUNTRY_CODES = 'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'.split(' ');

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** A country's English name from its code (the code itself when unknown). */
export function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

export const COUNTRY_OPTIONS = [
  { value: '', label: 'Not set' },
  ...COUNTRY_CODES.map((value) => ({ value, label: countryName(value) })).sort((a, b) => a.label.localeCompare(b.label)),
];

/** An IBAN as stored: upper case, no spaces. */
export const normalizeIban = (value: string) => value.replace(/\s+/g, '').toUpperCase();

/** ISO 13616: the country and check digits moved to the end, letters as 10..35, mod 97 = 1. */
export function ibanValid(iban: string): boolean {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const char of moved) {
    const digits = /[0-9]/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1;
}

/** An IBAN in groups of four, as people read it. */
export const formatIban = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ');

/** The address as printed: street lines, then postal code and city, region, country. */
export function sellerAddressLines(seller: Seller): string[] {
  const cityLine = [seller.postal_code, seller.city].filter(Boolean).join(' ');
  return [
    seller.address_line1,
    seller.address_line2,
    [cityLine, seller.region].filter(Boolean).join(', '),
    seller.country ? countryName(seller.country) : null,
  ].filter((line): line is string => Boolean(line));
}

/** Tax ID and company registration as printed. */
export function sellerLegalLines(seller: Seller): string[] {
  return [
    seller.tax_id ? `Tax ID: ${seller.tax_id}` : null,
    seller.company_registration ? `Company registration: ${seller.company_registration}` : null,
  ].filter((line): line is string => Boolean(line));
}

/** Bank details as printed: IBAN and BIC, then free text. */
export function sellerBankLines(seller: Seller): string[] {
  return [
    seller.iban ? `IBAN: ${formatIban(seller.iban)}` : null,
    seller.bic ? `BIC: ${seller.bic}` : null,
    ...(seller.bank_details ? seller.bank_details.split(/\r?\n/) : []),
  ].filter((line): line is string => Boolean(line));
}

/** The brand colour, when it is one (#rrggbb); anything else is not used. */
export const accentColor = (seller: Pick<Seller, 'accent_color'> | null | undefined) =>
  seller?.accent_color && /^#[0-9a-f]{6}$/i.test(seller.accent_color) ? seller.accent_color : null;

/** The seller as a public page's data carries it (decision 051): whether there is a logo, not its storage path (which names the account). */
export type PageSeller = Seller & { has_logo: boolean };

export function sellerForPage(seller: Seller | null | undefined): PageSeller | null {
  return seller ? { ...seller, logo_path: null, has_logo: Boolean(seller.logo_path) } : null;
}

/** The seller as a mail signs off: name, address, tax ID and registration. */
export function sellerSignatureLines(seller: Seller | null | undefined): string[] {
  if (!seller) return [];
  return [seller.name, ...sellerAddressLines(seller), ...sellerLegalLines(seller)];
}
