// The payment form's default date is today in the account's time zone, the day
// the database dates payments by (decision 043): west of UTC late in the
// evening it is still yesterday there.
import { describe, expect, it } from 'vitest';
import { dayIn } from '../../app/features/invoices/schema.ts';

describe('dayIn', () => {
  const lateUtc = new Date('2026-11-27T03:00:00Z');
  it("gives the day in the account's time zone", () => {
    expect(dayIn('America/Los_Angeles', lateUtc)).toBe('2026-11-26');
    expect(dayIn('Asia/Tokyo', new Date('2026-11-26T20:00:00Z'))).toBe('2026-11-27');
    expect(dayIn('UTC', lateUtc)).toBe('2026-11-27');
  });
  it('falls back to UTC without a zone, or with one it does not know', () => {
    expect(dayIn(null, lateUtc)).toBe('2026-11-27');
    expect(dayIn('Nowhere/Special', lateUtc)).toBe('2026-11-27');
  });
});
