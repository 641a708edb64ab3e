// The pure parts of analytics (issue 40): the range read from the URL, the
// account's midnight in its timezone, CSV cells and XLSX column names.
import { describe, expect, it } from 'vitest';
import { csvCell } from '~/features/analytics/export/csv';
import { buildReport, neutralised } from '~/features/analytics/export/report';
import type { PeriodFigures } from '~/features/analytics/figures';
import { zonedMidnight } from '~/features/analytics/export/rows.server';
import { columnName, xmlText } from '~/features/analytics/export/xlsx';
import { readRange } from '~/features/analytics/range';

describe('readRange', () => {
  const read = (query: string) => readRange(new URL(`http://x.test/analytics?${query}`));
  it('reads presets and custom dates, and falls back to the last 30 days saying why', () => {
    expect(read('')).toEqual({ range: 'last_30_days' });
    expect(read('range=last_quarter')).toEqual({ range: 'last_quarter' });
    expect(read('range=custom&from=2026-02-01&to=2026-02-28')).toEqual({ range: 'custom', from: '2026-02-01', to: '2026-02-28' });
    expect(read('range=custom&from=2026-02-30&to=2026-03-01').error).toBe('Enter a start and an end date for a custom range');
    expect(read('range=custom&from=2026-03-01&to=2026-02-01').error).toBe('End date must be on or after the start date');
    expect(read('range=custom&from=2000-01-01&to=2026-01-01').error).toBe('A custom range is at most ten years');
    expect(read('range=%3Cscript%3E').error).toBe('Choose a date range');
  });
});

describe('zonedMidnight', () => {
  it("is the UTC instant of the account's midnight, across daylight saving changes", () => {
    expect(zonedMidnight('2026-04-01', 'UTC').toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(zonedMidnight('2026-04-01', 'Europe/Berlin').toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect(zonedMidnight('2026-03-01', 'Europe/Berlin').toISOString()).toBe('2026-02-28T23:00:00.000Z');
    expect(zonedMidnight('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(zonedMidnight('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(zonedMidnight('2026-01-01', 'Asia/Kolkata').toISOString()).toBe('2025-12-31T18:30:00.000Z');
  });
});

describe('cells', () => {
  it('neutralise formulas in CSV and XLSX text, and quote CSV fields', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(neutralised(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(neutralised('plain')).toBe('plain');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(null)).toBe('');
  });

  it('name XLSX columns and escape XML, dropping characters XML forbids', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
    expect(xmlText('a<b>&"c"\u0001\u0007d')).toBe('a&lt;b&gt;&amp;&quot;c&quot;d');
  });
});

describe('the comprehensive summary', () => {
  const figures = (helpdesk: PeriodFigures['helpdesk']): PeriodFigures => ({
    from: '2026-04-01',
    to: '2026-04-30',
    timezone: 'UTC',
    sales: [],
    cash: [],
    leads: { total: 0, by_source: {}, by_status: {} },
    clients: { new_clients: 0 },
    helpdesk,
  });

  it('names SLA met and CSAT, or says there was none', () => {
    const some = buildReport('comprehensive', figures({ conversations: 4, sla_met: 3, sla_missed: 2, csat_responses: 3, csat_average: 3.67 }), [], {
      includeSummary: true,
      includeCharts: false,
    });
    expect(some.summary).toContain('SLA met: 3 of 5 targets (60%)');
    expect(some.summary).toContain('CSAT: 3.7 of 5 from 3 responses');
    const none = buildReport('comprehensive', figures({ conversations: 0, sla_met: 0, sla_missed: 0, csat_responses: 0, csat_average: null }), [], {
      includeSummary: true,
      includeCharts: false,
    });
    expect(none.summary).toContain('SLA met: no target fell due');
    expect(none.summary).toContain('CSAT: no ratings');
  });
});
