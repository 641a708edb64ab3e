import { describe, expect, it } from 'vitest';
import { exportReportSchema } from '../../app/features/analytics/schema.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

describe('export report form', () => {
  it('needs no dates unless the range is custom', () => {
    const report = valueOf(exportReportSchema, { report_type: 'sales', format: 'pdf', date_range: 'last_30_days' });
    expect(report.date_range).toBe('last_30_days');
    expect(report.start_date).toBeUndefined();
    expect(report.end_date).toBeUndefined();
  });

  it('defaults to pdf over the last 30 days', () => {
    expect(valueOf(exportReportSchema, {})).toMatchObject({ format: 'pdf', date_range: 'last_30_days' });
  });

  it('requires start and end dates for a custom range', () => {
    expect(errorsOf(exportReportSchema, { date_range: 'custom' })).toEqual({
      start_date: ['Start date is required for a custom range'],
      end_date: ['End date is required for a custom range'],
    });
    expect(
      valueOf(exportReportSchema, { date_range: 'custom', start_date: '2025-01-01', end_date: '2025-01-31' }),
    ).toMatchObject({ start_date: '2025-01-01', end_date: '2025-01-31' });
  });

  it('refuses an end before the start', () => {
    expect(errorsOf(exportReportSchema, { date_range: 'custom', start_date: '2025-02-01', end_date: '2025-01-01' })).toEqual({
      end_date: ['End date must be on or after the start date'],
    });
  });

  it('reads ticked boxes as true and missing ones as false (the form starts with both ticked)', () => {
    expect(valueOf(exportReportSchema, { include_charts: 'on', include_summary: 'on' })).toMatchObject({
      include_charts: true,
      include_summary: true,
    });
    expect(valueOf(exportReportSchema, {})).toMatchObject({ include_charts: false, include_summary: false });
  });

  it('refuses unknown report types, formats and ranges', () => {
    const errors = errorsOf(exportReportSchema, { report_type: 'secret', format: 'docx', date_range: 'forever' });
    expect(Object.keys(errors).sort()).toEqual(['date_range', 'format', 'report_type']);
  });
});
