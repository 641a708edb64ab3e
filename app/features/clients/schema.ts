// New client (docs/product-guide.md): name and email required; the company defaults to the
// name when left empty; phone, job role, address, country and notes optional. Shared by the
// dialog and the /clients action.
import { z } from '~/lib/schemas/zod';
import { oneOf, optionalText, requiredEmail, requiredText } from '~/lib/schemas/fields';
import { COUNTRY_CODES } from '~/lib/seller';

export const CLIENT_STATUSES = ['active', 'inactive', 'prospect'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

// A plain object (no transform on it), so Conform can derive the browser's
// constraints from it; the company default is applied by companyOrName.
export const newClientSchema = z.object({
  name: requiredText('Name'),
  email: requiredEmail('Email'),
  company: optionalText('Company', 200),
  phone: optionalText('Phone', 50),
  role: optionalText('Role', 200),
  address: optionalText('Address', 500),
  // ISO 3166-1 alpha-2, as the seller's (decision 045): the buyer's country of an e-invoice (BT-55, decision 052).
  country: z
    .string()
    .refine((value) => COUNTRY_CODES.includes(value), 'Choose a country')
    .optional(),
  notes: optionalText('Notes'),
});

export type NewClient = z.output<typeof newClientSchema>;

/** As docs/product-guide.md says: the company defaults to the name when empty. */
export function companyOrName(client: Pick<NewClient, 'name' | 'company'>): string {
  return client.company || client.name;
}

/** An edited client: its fields and its status. */
export const editClientSchema = newClientSchema.extend({ status: oneOf(CLIENT_STATUSES, 'Status') });
export type EditedClient = z.output<typeof editClientSchema>;

/** What a client's page posts, told apart by intent. */
export const clientActionSchema = z.discriminatedUnion('intent', [
  editClientSchema.extend({ intent: z.literal('update') }),
  z.object({ intent: z.literal('delete') }),
]);
