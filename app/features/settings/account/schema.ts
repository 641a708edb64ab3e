// Account settings (docs/product-guide.md): name required; billing email, currency,
// timezone; the seller details every quote and invoice prints (decision 045).
// The database checks the same rules (20261202100001_seller_identity.sql).
import { z } from '~/lib/schemas/zod';
import { ALL_CURRENCIES, ALL_TIMEZONES } from '~/features/settings/settings-options';
import { COUNTRY_CODES, ibanValid, normalizeIban } from '~/lib/seller';
import { optionalEmail, requiredText } from '~/lib/schemas/fields';

// Control characters: none in a line; a line break allowed in the multi-line fields.
/* eslint-disable no-control-regex -- finding control characters is the point */
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_BUT_LINES = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/;
/* eslint-enable no-control-regex */

function sellerLine(label: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((value) => !CONTROL.test(value), `${label} cannot contain control characters`)
    .optional();
}

function sellerLines(label: string, max: number) {
  return z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((value) => !CONTROL_BUT_LINES.test(value), `${label} cannot contain control characters`)
    .optional();
}

export const accountSettingsSchema = z.object({
  name: requiredText('Account name'),
  billing_email: optionalEmail(),
  default_currency: z.enum(ALL_CURRENCIES, { error: 'Choose a currency' }).default('USD'),
  timezone: z
    .string()
    .refine((value) => ALL_TIMEZONES.includes(value), 'Choose a timezone')
    .default('UTC'),
  address_line1: sellerLine('Address line 1', 200),
  address_line2: sellerLine('Address line 2', 200),
  postal_code: sellerLine('Postal code', 20),
  city: sellerLine('City', 100),
  region: sellerLine('Region', 100),
  country: z
    .string()
    .refine((value) => COUNTRY_CODES.includes(value), 'Choose a country')
    .optional(),
  tax_id: sellerLine('Tax ID', 50),
  company_registration: sellerLine('Company registration', 100),
  iban: z
    .string()
    .transform(normalizeIban)
    .refine((value) => value === '' || ibanValid(value), 'Enter a valid IBAN (its check digits do not match)')
    .optional(),
  bic: z
    .string()
    .transform((value) => value.replace(/\s+/g, '').toUpperCase())
    .refine((value) => value === '' || /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value), 'Enter a valid BIC (8 or 11 letters and digits)')
    .optional(),
  bank_details: sellerLines('Bank details', 500),
  payment_terms: sellerLines('Payment terms', 500),
  accent_color: z
    .string()
    .trim()
    .toLowerCase()
    .refine((value) => /^#[0-9a-f]{6}$/.test(value), 'Enter a colour as #rrggbb')
    .optional(),
});

export type AccountSettings = z.output<typeof accountSettingsSchema>;

export const ACCOUNT_TEXTS = {
  saved: 'Account settings updated successfully',
  saveFailed: 'Failed to update account settings',
  loadFailed: 'Failed to fetch account details',
} as const;
