// The bids of /rfp (docs/product-guide.md, RFP; issue 38): the New RFP Response dialog (spec §3: every field
// except additional_notes required; contact_email an email, deadline a date), and the record page's forms,
// each a plain post told apart by its intent: the edit (with the owner), the status, the go/no-go decision
// with its reasons, and the delete.
import { z } from '~/lib/schemas/zod';
import { isRealDate, moneyInCents, oneOf, optionalText, requiredDate, requiredEmail, requiredText, uuid } from '~/lib/schemas/fields';
import { CURRENCY_CODES } from '~/lib/currencies';

/** The pipeline, as the database's check lists it (Won and Lost added to spec §4's four). */
export const RFP_STATUSES = ['Active', 'Submitted', 'Under Review', 'Won', 'Lost', 'Closed'] as const;
export type RfpStatus = (typeof RFP_STATUSES)[number];
export const RFP_STATUS_OPTIONS = RFP_STATUSES.map((value) => ({ value, label: value }));

export const RFP_DECISIONS = ['go', 'no_go'] as const;
export type RfpDecision = (typeof RFP_DECISIONS)[number];
export const RFP_DECISION_LABELS: Record<RfpDecision, string> = { go: 'Go', no_go: 'No go' };

/** The currencies a bid is kept in: the product's one list (the table's check, migration 20261209000002). */
export const RFP_CURRENCIES = CURRENCY_CODES;

const deadline = requiredDate('Deadline').refine(
  (value) => !isRealDate(value) || (value >= '2000-01-01' && value <= '2200-12-31'), 'Deadline must be between 2000 and 2200',
);

export const newRfpResponseSchema = z.object({
  title: requiredText('Title'),
  company: requiredText('Company'),
  contact_email: requiredEmail('Contact email'),
  value: moneyInCents('Value'),
  deadline,
  proposal: requiredText('Proposal', 10_000),
  additional_notes: optionalText('Additional notes', 5000),
  // Pursued from the radar: the opportunity it answers, and the notice's currency when the bid can take it.
  opportunity_id: z.preprocess((value) => (value === '' ? undefined : value), uuid.optional()),
  currency: z.preprocess((value) => (value === '' ? undefined : value), oneOf(RFP_CURRENCIES, 'Currency').optional()),
});
export type NewRfpResponse = z.output<typeof newRfpResponseSchema>;

export const editRfpSchema = newRfpResponseSchema.omit({ opportunity_id: true, currency: true }).extend({
  intent: z.literal('update'),
  // Empty: nobody owns it.
  owner_id: z.preprocess((value) => (value === '' ? undefined : value), uuid.optional()),
});
export type EditedRfp = z.output<typeof editRfpSchema>;

export const rfpStatusSchema = z.object({ intent: z.literal('status'), status: oneOf(RFP_STATUSES, 'Status') });

export const rfpDecisionSchema = z
  .object({
    intent: z.literal('decide'),
    decision: oneOf(RFP_DECISIONS, 'Decision'),
    decision_reasons: optionalText('Reasons', 2000),
  })
  // A no-go is a decision to explain: the reasons are what the team reads later.
  .refine((form) => form.decision !== 'no_go' || Boolean(form.decision_reasons?.trim()), {
    path: ['decision_reasons'], message: 'Say why it is a no go',
  });

export const rfpActionSchema = z.discriminatedUnion('intent', [
  editRfpSchema, rfpStatusSchema, rfpDecisionSchema, z.object({ intent: z.literal('delete') }),
]);
