import { describe, expect, it } from 'vitest';
import { newRfpResponseSchema } from '../../app/features/rfp/schema.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

const valid = {
  title: 'Platform tender',
  company: 'City of Oslo',
  contact_email: 'tenders@oslo.test',
  value: '250000',
  deadline: '2025-04-30',
  proposal: 'We propose...',
};

describe('new RFP response form', () => {
  it('accepts every field but additional_notes as required, notes optional', () => {
    const response = valueOf(newRfpResponseSchema, valid);
    expect(response.value).toBe(25_000_000);
    expect(response.additional_notes).toBeUndefined();
    expect(valueOf(newRfpResponseSchema, { ...valid, additional_notes: 'Call first' }).additional_notes).toBe('Call first');
  });

  it('requires every other field', () => {
    expect(Object.keys(errorsOf(newRfpResponseSchema, {})).sort()).toEqual([
      'company',
      'contact_email',
      'deadline',
      'proposal',
      'title',
      'value',
    ]);
  });

  it('wants an email and a date', () => {
    const errors = errorsOf(newRfpResponseSchema, { ...valid, contact_email: 'nope', deadline: 'soon' });
    expect(errors).toEqual({ contact_email: ['Enter a valid email address'], deadline: ['Deadline must be a date'] });
  });
});
