// New RFP response (docs/product-guide.md, Demonstration screens): every field except additional_notes is
// required; contact_email must be an email and deadline a date.
import { z } from '~/lib/schemas/zod';
import { moneyInCents, optionalText, requiredDate, requiredEmail, requiredText } from '~/lib/schemas/fields';

export const RFP_STATUSES = ['Active', 'Submitted', 'Under Review', 'Closed'] as const;
export type RfpStatus = (typeof RFP_STATUSES)[number];

export const newRfpResponseSchema = z.object({
  title: requiredText('Title'),
  company: requiredText('Company'),
  contact_email: requiredEmail('Contact email'),
  value: moneyInCents('Value'),
  deadline: requiredDate('Deadline'),
  proposal: requiredText('Proposal', 10_000),
  additional_notes: optionalText('Additional notes'),
});

export type NewRfpResponse = z.output<typeof newRfpResponseSchema>;
