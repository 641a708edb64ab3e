// New compliance assessment (docs/product-guide.md): title, responsible team, next
// review date and description required; category and risk level from lists; an
// owner (a user of the account) and how often it recurs (issue 37). A review's
// form and the filters of the list are here too.
import { z } from '~/lib/schemas/zod';
import { oneOf, optionalText, requiredDate, requiredText, uuid, type Option } from '~/lib/schemas/fields';

export const COMPLIANCE_CATEGORIES = [
  'financial',
  'data_protection',
  'security',
  'healthcare',
  'environmental',
  'other',
] as const;
export type ComplianceCategory = (typeof COMPLIANCE_CATEGORIES)[number];
export const COMPLIANCE_CATEGORY_LABELS: Record<ComplianceCategory, string> = {
  financial: 'Financial',
  data_protection: 'Data Protection',
  security: 'Security',
  healthcare: 'Healthcare',
  environmental: 'Environmental',
  other: 'Other',
};
export const COMPLIANCE_CATEGORY_OPTIONS: Option<ComplianceCategory>[] = COMPLIANCE_CATEGORIES.map((value) => ({
  value,
  label: COMPLIANCE_CATEGORY_LABELS[value],
}));

export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export const RISK_LEVEL_LABELS: Record<RiskLevel, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  critical: 'Critical',
};
export const RISK_LEVEL_OPTIONS: Option<RiskLevel>[] = RISK_LEVELS.map((value) => ({
  value,
  label: RISK_LEVEL_LABELS[value],
}));

export const COMPLIANCE_STATUSES = ['Compliant', 'In Progress', 'Action Required', 'Non-Compliant'] as const;
export type ComplianceStatus = (typeof COMPLIANCE_STATUSES)[number];

export const FREQUENCIES = ['monthly', 'quarterly', 'semiannual', 'annual', 'custom'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const FREQUENCY_LABELS: Record<Frequency, string> = {
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  semiannual: 'Half-yearly',
  annual: 'Yearly',
  custom: 'Custom interval',
};
export const FREQUENCY_OPTIONS: Option<Frequency>[] = FREQUENCIES.map((value) => ({ value, label: FREQUENCY_LABELS[value] }));

/** Line breaks and other control characters: refused in names (the database refuses them too). */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
const CONTROL_MESSAGE = 'Remove line breaks and other control characters';
const lineOfText = (label: string) => requiredText(label).refine((value) => !CONTROL.test(value), CONTROL_MESSAGE);

export const newAssessmentSchema = z
  .object({
    title: lineOfText('Title'),
    category: oneOf(COMPLIANCE_CATEGORIES, 'Category').default('financial'),
    risk_level: oneOf(RISK_LEVELS, 'Risk level').default('medium'),
    responsible_team: lineOfText('Responsible team'),
    owner_id: uuid.optional(),
    frequency: oneOf(FREQUENCIES, 'Frequency').default('annual'),
    interval_months: z.coerce.number({ error: 'Months must be a whole number' }).int('Months must be a whole number')
      .min(1, 'Months must be between 1 and 60').max(60, 'Months must be between 1 and 60').optional(),
    next_review_date: requiredDate('Next review date').refine((value) => value >= '2000-01-01' && value <= '2200-12-31', 'Next review date must be between 2000 and 2200'),
    description: requiredText('Description', 5000),
    requirements: optionalText('Requirements', 5000),
  })
  .superRefine((value, ctx) => {
    if (value.frequency === 'custom' && value.interval_months === undefined) {
      ctx.addIssue({ code: 'custom', path: ['interval_months'], message: 'Enter the months between reviews' });
    }
  });

export type NewAssessment = z.output<typeof newAssessmentSchema>;

const EVIDENCE_FILE_REQUIRED_EMPTY = 'The file is empty';
const MAX_EVIDENCE_BYTES_OF_REVIEW = 10 * 1024 * 1024;

/**
 * Recording a review on an item's page: outcome, day, notes, optionally the
 * review it supersedes, and optionally its evidence in the same post (a file,
 * its title and expiry; effective from the review's day), stored with the
 * review's id. An empty file input (no file chosen) is no evidence.
 */
export const reviewSchema = z.object({
  intent: z.literal('review'),
  reviewed_on: requiredDate('Review date'),
  outcome: oneOf(COMPLIANCE_STATUSES, 'Outcome'),
  notes: optionalText('Notes', 5000),
  supersedes: uuid.optional(),
  evidence_file: z.preprocess(
    (value) => (value instanceof File && value.size === 0 && value.name === '' ? undefined : value),
    z.file().refine((file) => file.size > 0, EVIDENCE_FILE_REQUIRED_EMPTY).refine((file) => file.size <= MAX_EVIDENCE_BYTES_OF_REVIEW, 'The file is too large: the limit is 10 MB').optional(),
  ),
  evidence_title: optionalText('Evidence title', 200).refine((value) => !value || !CONTROL.test(value), CONTROL_MESSAGE),
  evidence_expires_on: requiredDate('Expiry date').optional(),
}).superRefine((value, ctx) => {
  if (value.evidence_file && !value.evidence_title) {
    ctx.addIssue({ code: 'custom', path: ['evidence_title'], message: 'Give the evidence a title' });
  }
  if (value.evidence_expires_on && value.evidence_expires_on <= value.reviewed_on) {
    ctx.addIssue({ code: 'custom', path: ['evidence_expires_on'], message: 'The expiry must be after the effective date' });
  }
});

/** The list's filters beyond the status: category, risk level and owner (?category=&risk=&owner=). */
export interface ComplianceFilters {
  category: ComplianceCategory | null;
  risk: RiskLevel | null;
  owner: string | null;
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function readFilters(url: URL): ComplianceFilters {
  const p = url.searchParams;
  const category = COMPLIANCE_CATEGORIES.find((c) => c === p.get('category')) ?? null;
  const risk = RISK_LEVELS.find((r) => r === p.get('risk')) ?? null;
  const owner = p.get('owner');
  return { category, risk, owner: owner && UUID.test(owner) ? owner : null };
}

/** Evidence files: at most 10 MB, of the evidence bucket's types (checked by content on the server). */
export const MAX_EVIDENCE_BYTES = 10 * 1024 * 1024;
export const EVIDENCE_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'txt', 'json'] as const;
export const EVIDENCE_FILE_REQUIRED = 'Please select a file to upload';
export const EVIDENCE_TOO_LARGE = 'The file is too large: the limit is 10 MB';
export const EVIDENCE_WRONG_TYPE = 'Evidence must be a PDF, PNG, JPEG, text or JSON file';

export const evidenceSchema = z
  .object({
    intent: z.literal('evidence'),
    file: z
      .file({ error: EVIDENCE_FILE_REQUIRED })
      .refine((file) => file.size > 0, EVIDENCE_FILE_REQUIRED)
      .refine((file) => file.size <= MAX_EVIDENCE_BYTES, EVIDENCE_TOO_LARGE),
    title: lineOfText('Title'),
    effective_on: requiredDate('Effective date'),
    expires_on: requiredDate('Expiry date').optional(),
    review_id: uuid.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.expires_on && value.expires_on <= value.effective_on) {
      ctx.addIssue({ code: 'custom', path: ['expires_on'], message: 'The expiry must be after the effective date' });
    }
  });

/**
 * Editing an item on its page (?edit): the New Assessment fields, the first
 * review date and the recurrence included (a changed schedule regenerates the
 * open reviews due in the database; past reviews stay).
 */
export const editItemSchema = z
  .object({
    intent: z.literal('update'),
    title: lineOfText('Title'),
    category: oneOf(COMPLIANCE_CATEGORIES, 'Category'),
    risk_level: oneOf(RISK_LEVELS, 'Risk level'),
    responsible_team: lineOfText('Responsible team'),
    owner_id: uuid.optional(),
    frequency: oneOf(FREQUENCIES, 'Frequency'),
    interval_months: z.coerce.number({ error: 'Months must be a whole number' }).int('Months must be a whole number')
      .min(1, 'Months must be between 1 and 60').max(60, 'Months must be between 1 and 60').optional(),
    first_review_date: requiredDate('First review date').refine((value) => value >= '2000-01-01' && value <= '2200-12-31', 'First review date must be between 2000 and 2200'),
    description: requiredText('Description', 5000),
    requirements: optionalText('Requirements', 5000),
  })
  .superRefine((value, ctx) => {
    if (value.frequency === 'custom' && value.interval_months === undefined) {
      ctx.addIssue({ code: 'custom', path: ['interval_months'], message: 'Enter the months between reviews' });
    }
  });
export type EditedItem = z.output<typeof editItemSchema>;

export const mapControlSchema = z.object({ intent: z.literal('map'), control_id: uuid });
export const unmapControlSchema = z.object({ intent: z.literal('unmap'), control_id: uuid });
export const itemActionSchema = z.discriminatedUnion('intent', [
  reviewSchema, evidenceSchema, mapControlSchema, unmapControlSchema, editItemSchema, z.object({ intent: z.literal('delete') }),
  z.object({ intent: z.literal('package') }),
]);

/** The catalogue page's two forms: import an OSCAL file, or turn chosen controls into requirements. */
export const catalogueActionSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('import'),
    file: z.file({ error: 'Please select a file to upload' }).refine((file) => file.size > 0, 'Please select a file to upload'),
  }),
  z.object({
    intent: z.literal('create'),
    control_ids: z.array(uuid, { error: 'Choose the controls to turn into requirements' }).min(1, 'Choose the controls to turn into requirements').max(200, 'Choose at most 200 controls at once'),
    responsible_team: lineOfText('Responsible team'),
    first_review_date: requiredDate('First review'),
    frequency: oneOf(['monthly', 'quarterly', 'semiannual', 'annual'] as const, 'Frequency').default('annual'),
  }),
]);
