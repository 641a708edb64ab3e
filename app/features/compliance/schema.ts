// New compliance assessment (docs/product-guide.md): title, responsible team, next
// review date and description required; category and risk level from lists.
import { z } from '~/lib/schemas/zod';
import { oneOf, optionalText, requiredDate, requiredText, type Option } from '~/lib/schemas/fields';

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

export const newAssessmentSchema = z.object({
  title: requiredText('Title'),
  category: oneOf(COMPLIANCE_CATEGORIES, 'Category').default('financial'),
  risk_level: oneOf(RISK_LEVELS, 'Risk level').default('medium'),
  responsible_team: requiredText('Responsible team'),
  next_review_date: requiredDate('Next review date'),
  description: requiredText('Description', 5000),
  requirements: optionalText('Requirements', 5000),
});

export type NewAssessment = z.output<typeof newAssessmentSchema>;
