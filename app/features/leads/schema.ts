// New lead (docs/product-guide.md): full name, email and company required; phone/WhatsApp,
// job role and notes optional; a source from the fixed list; interest tags
// (the module keys of docs/product-guide.md). Shared by the dialog and the /leads action.
import { z } from '~/lib/schemas/zod';
import { oneOf, optionalText, requiredEmail, requiredText, type Option } from '~/lib/schemas/fields';

export const LEAD_SOURCES = ['website', 'referral', 'linkedin', 'email', 'event', 'other'] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];
export const DEFAULT_LEAD_SOURCE: LeadSource = 'website';
export const LEAD_SOURCE_OPTIONS: Option<LeadSource>[] = [
  { value: 'website', label: 'Website' },
  { value: 'referral', label: 'Referral' },
  { value: 'linkedin', label: 'LinkedIn' },
  { value: 'email', label: 'Email Campaign' },
  { value: 'event', label: 'Event' },
  { value: 'other', label: 'Other' },
];

export const LEAD_STATUSES = ['new', 'qualified', 'contacted', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const LEAD_INTERESTS = ['helpdesk', 'cpq', 'logistics', 'doc2data', 'rfp', 'compliance'] as const;
export const LEAD_INTEREST_OPTIONS: Option[] = [
  { value: 'helpdesk', label: 'Helpdesk' },
  { value: 'cpq', label: 'CPQ' },
  { value: 'logistics', label: 'Logistics' },
  { value: 'doc2data', label: 'Doc2Data' },
  { value: 'rfp', label: 'RFP Radar' },
  { value: 'compliance', label: 'Compliance' },
];

export const newLeadSchema = z.object({
  name: requiredText('Full name'),
  email: requiredEmail('Email'),
  company: requiredText('Company'),
  phone_whatsapp: optionalText('Phone/WhatsApp', 50),
  role: optionalText('Job role', 200),
  source: oneOf(LEAD_SOURCES, 'Source').default(DEFAULT_LEAD_SOURCE),
  // Checkboxes: none ticked sends nothing at all.
  interest: z.array(oneOf(LEAD_INTERESTS, 'Interest')).max(LEAD_INTERESTS.length).default([]),
  notes: optionalText('Notes'),
});

export type NewLead = z.output<typeof newLeadSchema>;

/** The order a lead moves in (docs/product-guide.md): new → contacted → qualified, or lost at any point. */
export const LEAD_STATUS_FLOW: readonly LeadStatus[] = ['new', 'contacted', 'qualified', 'lost'];

/** Where a status change made from the list returns: a path of the leads list, nothing else. */
const leadsListPath = z
  .string()
  .max(500, 'Invalid return path')
  .regex(/^\/leads(\?[^\s]*)?$/, 'Invalid return path')
  .optional();

/** What a lead's page (and a list row's status control) posts, told apart by intent. */
export const leadActionSchema = z.discriminatedUnion('intent', [
  newLeadSchema.extend({ intent: z.literal('update') }),
  z.object({ intent: z.literal('status'), status: oneOf(LEAD_STATUSES, 'Status'), returnTo: leadsListPath }),
  z.object({ intent: z.literal('delete') }),
  z.object({ intent: z.literal('convert') }),
  z.object({ intent: z.literal('convert-quote') }),
]);
