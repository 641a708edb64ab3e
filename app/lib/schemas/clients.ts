// New client (spec §5): name and email required; the company defaults to the
// name when left empty; phone, job role and notes optional. Shared by the
// dialog and the /clients action.
import { z } from 'zod';
import { optionalText, requiredEmail, requiredText } from './fields';

export const CLIENT_STATUSES = ['active', 'inactive', 'prospect'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

export const newClientSchema = z
  .object({
    name: requiredText('Name'),
    email: requiredEmail('Email'),
    company: optionalText('Company', 200),
    phone: optionalText('Phone', 50),
    role: optionalText('Role', 200),
    notes: optionalText('Notes'),
  })
  .transform((client) => ({ ...client, company: client.company || client.name }));

export type NewClient = z.output<typeof newClientSchema>;
