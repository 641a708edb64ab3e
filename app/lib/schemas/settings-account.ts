// Account settings (docs/product-guide.md): name required; billing email, currency,
// timezone and country.
import { z } from './zod';
import { ALL_CURRENCIES, ALL_TIMEZONES } from '../settings-options';
import { optionalEmail, optionalText, requiredText } from './fields';

export const accountSettingsSchema = z.object({
  name: requiredText('Account name'),
  billing_email: optionalEmail(),
  default_currency: z.enum(ALL_CURRENCIES, { error: 'Choose a currency' }).default('USD'),
  timezone: z
    .string()
    .refine((value) => ALL_TIMEZONES.includes(value), 'Choose a timezone')
    .default('UTC'),
  country: optionalText('Country', 100),
});

export type AccountSettings = z.output<typeof accountSettingsSchema>;

export const ACCOUNT_TEXTS = {
  saved: 'Account settings updated successfully',
  saveFailed: 'Failed to update account settings',
  loadFailed: 'Failed to fetch account details',
} as const;
