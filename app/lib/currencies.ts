// The product's one list of currencies (decision 046): what quotes, invoices,
// settings and document extraction offer and accept. The database holds the
// same list (public.currencies(), migrations 20261202200001 and 20261209000001); a test
// (tests/db/currencies.test.ts) fails when the two differ.
//
// Amounts are integer hundredths of the unit in every currency (the "cents"
// of the code); a currency with no minor units (JPY) takes whole amounts only.
// Relative imports only: unit tests load this file in Node.
export const CURRENCIES = [
  { code: 'USD', minorUnits: 2, name: 'US dollar' },
  { code: 'EUR', minorUnits: 2, name: 'Euro' },
  { code: 'GBP', minorUnits: 2, name: 'Pound sterling' },
  { code: 'CAD', minorUnits: 2, name: 'Canadian dollar' },
  { code: 'AUD', minorUnits: 2, name: 'Australian dollar' },
  { code: 'NZD', minorUnits: 2, name: 'New Zealand dollar' },
  { code: 'CHF', minorUnits: 2, name: 'Swiss franc' },
  { code: 'JPY', minorUnits: 0, name: 'Japanese yen' },
  { code: 'CNY', minorUnits: 2, name: 'Chinese yuan' },
  { code: 'HKD', minorUnits: 2, name: 'Hong Kong dollar' },
  { code: 'SGD', minorUnits: 2, name: 'Singapore dollar' },
  { code: 'INR', minorUnits: 2, name: 'Indian rupee' },
  { code: 'AED', minorUnits: 2, name: 'UAE dirham' },
  { code: 'SEK', minorUnits: 2, name: 'Swedish krona' },
  { code: 'NOK', minorUnits: 2, name: 'Norwegian krone' },
  { code: 'DKK', minorUnits: 2, name: 'Danish krone' },
  { code: 'PLN', minorUnits: 2, name: 'Polish złoty' },
  { code: 'CZK', minorUnits: 2, name: 'Czech koruna' },
  { code: 'ZAR', minorUnits: 2, name: 'South African rand' },
  { code: 'BRL', minorUnits: 2, name: 'Brazilian real' },
  { code: 'MXN', minorUnits: 2, name: 'Mexican peso' },
  { code: 'PEN', minorUnits: 2, name: 'Peruvian sol' },
  { code: 'ARS', minorUnits: 2, name: 'Argentine peso' },
  { code: 'CLP', minorUnits: 0, name: 'Chilean peso' },
  { code: 'COP', minorUnits: 2, name: 'Colombian peso' },
] as const;

export type CurrencyCode = (typeof CURRENCIES)[number]['code'];

/** The codes, for z.enum and the extraction's search. */
export const CURRENCY_CODES = CURRENCIES.map((c) => c.code) as unknown as readonly [CurrencyCode, ...CurrencyCode[]];

/** A <select>'s options: "USD — US dollar". */
export const CURRENCY_OPTIONS: { value: string; label: string }[] = CURRENCIES.map((c) => ({ value: c.code, label: `${c.code} — ${c.name}` }));

export function isCurrency(code: string): code is CurrencyCode {
  return CURRENCIES.some((c) => c.code === code);
}

/** Digits after the decimal point (JPY 0); 2 for a code not in the list. */
export function minorUnits(code: string): number {
  return CURRENCIES.find((c) => c.code === code)?.minorUnits ?? 2;
}

/** True when an amount in hundredths can be written in the currency (whole yen: multiples of 100). */
export function fitsCurrency(hundredths: number, code: string): boolean {
  return hundredths % 10 ** (2 - minorUnits(code)) === 0;
}
