import { describe, expect, it } from 'vitest';
import { COMPLIANCE_CATEGORIES, newAssessmentSchema, RISK_LEVELS } from '../../app/features/compliance/schema.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

const valid = {
  title: 'PCI review',
  category: 'security',
  risk_level: 'critical',
  responsible_team: 'Security',
  next_review_date: '2025-06-01',
  description: 'Yearly PCI DSS review',
};

describe('new compliance assessment form', () => {
  it('offers the spec’s categories and risk levels', () => {
    expect(COMPLIANCE_CATEGORIES).toEqual(['financial', 'data_protection', 'security', 'healthcare', 'environmental', 'other']);
    expect(RISK_LEVELS).toEqual(['low', 'medium', 'high', 'critical']);
  });

  it('accepts a complete assessment; requirements are optional', () => {
    const assessment = valueOf(newAssessmentSchema, valid);
    expect(assessment.risk_level).toBe('critical');
    expect(assessment.requirements).toBeUndefined();
  });

  it('requires title, responsible team, next review date and description', () => {
    expect(Object.keys(errorsOf(newAssessmentSchema, { category: 'other', risk_level: 'low' })).sort()).toEqual([
      'description',
      'next_review_date',
      'responsible_team',
      'title',
    ]);
  });

  it('refuses unknown categories and risk levels', () => {
    const errors = errorsOf(newAssessmentSchema, { ...valid, category: 'tax', risk_level: 'extreme' });
    expect(errors).toEqual({ category: ['Choose a category'], risk_level: ['Choose a risk level'] });
  });

  it('recurs yearly unless told; a custom frequency needs its months (1 to 60)', () => {
    expect(valueOf(newAssessmentSchema, valid).frequency).toBe('annual');
    expect(errorsOf(newAssessmentSchema, { ...valid, frequency: 'custom' })).toEqual({ interval_months: ['Enter the months between reviews'] });
    expect(valueOf(newAssessmentSchema, { ...valid, frequency: 'custom', interval_months: '2' }).interval_months).toBe(2);
    expect(Object.keys(errorsOf(newAssessmentSchema, { ...valid, frequency: 'custom', interval_months: '61' }))).toEqual(['interval_months']);
    expect(Object.keys(errorsOf(newAssessmentSchema, { ...valid, frequency: 'weekly' }))).toEqual(['frequency']);
  });

  it('refuses control characters in names', () => {
    expect(errorsOf(newAssessmentSchema, { ...valid, title: 'PCI\u0007review' })).toEqual({ title: ['Remove line breaks and other control characters'] });
  });
});
