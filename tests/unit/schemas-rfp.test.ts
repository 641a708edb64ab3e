import { describe, expect, it } from 'vitest';
import { newRfpResponseSchema, rfpActionSchema } from '../../app/features/rfp/schema.ts';
import { daysLeft, deadlineNote } from '../../app/features/rfp/deadline.ts';
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

describe("a bid's page forms", () => {
  it('edits with an optional owner (empty: nobody)', () => {
    const edited = valueOf(rfpActionSchema, { ...valid, intent: 'update', owner_id: '' });
    expect(edited).toMatchObject({ intent: 'update', value: 25_000_000 });
    expect((edited as { owner_id?: string }).owner_id).toBeUndefined();
    expect(errorsOf(rfpActionSchema, { ...valid, intent: 'update', owner_id: 'me' })).toHaveProperty('owner_id');
  });

  it('takes only the pipeline statuses', () => {
    expect(valueOf(rfpActionSchema, { intent: 'status', status: 'Under Review' })).toEqual({ intent: 'status', status: 'Under Review' });
    expect(errorsOf(rfpActionSchema, { intent: 'status', status: 'Pending' })).toEqual({ status: ['Choose a status'] });
  });

  it('wants reasons for a no go, not for a go', () => {
    expect(errorsOf(rfpActionSchema, { intent: 'decide', decision: 'no_go', decision_reasons: ' ' })).toEqual({ decision_reasons: ['Say why it is a no go'] });
    expect(valueOf(rfpActionSchema, { intent: 'decide', decision: 'go' })).toMatchObject({ decision: 'go' });
    expect(errorsOf(rfpActionSchema, { intent: 'decide', decision: 'maybe' })).toHaveProperty('decision');
  });
});

describe('days left', () => {
  it('counts whole days from today, red under 7, and says when the deadline is past', () => {
    expect(daysLeft('2026-12-01', '2026-11-26')).toBe(5);
    expect(deadlineNote('2026-12-14', '2026-11-26')).toEqual({ text: '18 days left', urgent: false });
    expect(deadlineNote('2026-12-03', '2026-11-26')).toEqual({ text: '7 days left', urgent: false });
    expect(deadlineNote('2026-12-02', '2026-11-26')).toEqual({ text: '6 days left', urgent: true });
    expect(deadlineNote('2026-11-27', '2026-11-26')).toEqual({ text: '1 day left', urgent: true });
    expect(deadlineNote('2026-11-26', '2026-11-26')).toEqual({ text: 'Due today', urgent: true });
    expect(deadlineNote('2026-11-25', '2026-11-26')).toEqual({ text: 'Past deadline (1 day ago)', urgent: true });
    expect(deadlineNote('2025-02-15', '2026-11-26').text).toBe('Past deadline (649 days ago)');
    // Across the end of daylight saving time and a leap day: still whole days.
    expect(daysLeft('2028-03-01', '2028-02-28')).toBe(2);
  });
});
