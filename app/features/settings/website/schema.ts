// Website settings (docs/product-guide.md): company name and contact email required;
// description (default the tagline), timezone and currency from the product guide's lists.
import { z } from '~/lib/schemas/zod';
import { WEBSITE_CURRENCIES, WEBSITE_TIMEZONES } from '~/features/settings/settings-options';
import { optionalText, requiredEmail, requiredText } from '~/lib/schemas/fields';

export const websiteSettingsSchema = z.object({
  company_name: requiredText('Company name'),
  contact_email: requiredEmail('Contact email'),
  description: optionalText('Description', 500),
  timezone: z.enum(WEBSITE_TIMEZONES, { error: 'Choose a timezone' }).default('UTC'),
  currency: z.enum(WEBSITE_CURRENCIES, { error: 'Choose a currency' }).default('USD'),
});

export type WebsiteSettings = z.output<typeof websiteSettingsSchema>;

export const WEBSITE_TEXTS = {
  restrictedTitle: 'Access Restricted',
  restricted: 'Only administrators can manage website settings',
  deniedTitle: 'Access Denied',
  deniedOnLoad: 'Only the master account admin can manage website settings',
  deniedOnSave: 'Only the master account admin can update website settings',
  loadFailed: 'Failed to fetch website settings',
  saved: 'Website settings updated successfully',
  saveFailed: 'Failed to update settings',
} as const;
