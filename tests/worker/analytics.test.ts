import { beforeAll, describe, expect, it } from 'vitest';
import { type Visitor } from './support/app';
import { control, demoAdmin, expectCreated, expectRefused, page, readable, selectedOption } from './support/module-screens';

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

const valid = {
  report_type: 'sales',
  format: 'pdf',
  date_range: 'last_30_days',
  start_date: '',
  end_date: '',
  include_charts: 'on',
  include_summary: 'on',
};

describe('/analytics', () => {
  it('shows the KPIs, Top Performing Services, Lead Sources and Monthly Goals', async () => {
    const html = await page(visitor, '/analytics');
    const text = readable(html);
    for (const kpi of ['Total Revenue $284,500', 'Conversion Rate 24.8%', 'Active Clients 142', 'Avg Deal Size $8,450']) {
      expect(text).toContain(kpi);
    }
    expect(text).toContain('Top Performing Services');
    expect(text).toContain('Logistics Integration $98,400 18 +24%');
    expect(text).toContain('Lead Sources');
    expect(text).toContain('Website 187 leads (39%)');
    expect(text).toContain('Monthly Goals');
    const progress = [...html.matchAll(/role="progressbar"[^>]*/g)].map(([tag]) => /aria-valuenow="(\d+)"/.exec(tag)?.[1]);
    expect(progress).toEqual(['93', '80', '76', '90']);
    expect(text).toContain('Revenue $74,700 of $80,000 (93%)');
  });

  it('draws the charts on the server as SVG, each named and with its figures as a table', async () => {
    const html = await page(visitor, '/analytics');
    expect(html.match(/<svg[^>]*role="img"[^>]*data-chart="line"/g)).toHaveLength(1);
    expect(html.match(/<svg[^>]*role="img"[^>]*data-chart="bar"/g)).toHaveLength(1);
    expect(html.match(/<polyline /g)).toHaveLength(1);
    // One bar per month.
    expect(html.match(/<rect [^>]*class="fill-primary"/g)).toHaveLength(6);
    const text = readable(html);
    expect(text).toContain('Monthly revenue over the last six months, in US dollars.');
    expect(text).toContain('Month Revenue Aug $32,000');
    expect(text).toContain('Jan 102');
  });

  it('renders Date Range as a button that says it does nothing', async () => {
    const html = await page(visitor, '/analytics');
    expect(html).toMatch(/<button[^>]*aria-disabled="true"[^>]*>[\s\S]*?Date Range[\s\S]*?not available in this demo[\s\S]*?<\/button>/);
  });

  it('opens Export Report at /analytics?export: pdf, last 30 days, charts and summary ticked', async () => {
    const list = await page(visitor, '/analytics');
    expect(list).toMatch(/<a[^>]*href="\/analytics\?export"/);
    const html = await page(visitor, '/analytics?export');
    expect(html).toContain('role="dialog"');
    expect(selectedOption(html, 'format')).toBe('pdf');
    expect(selectedOption(html, 'date_range')).toBe('last_30_days');
    expect(control(html, 'include_charts')).toContain('checked');
    expect(control(html, 'include_summary')).toContain('checked');
    expect(control(html, 'start_date')).not.toContain('required');
  });

  it("exports and says 'Report exported successfully! Download will begin shortly.'", async () => {
    await expectCreated(
      visitor,
      '/analytics?export',
      valid,
      '/analytics',
      'Report exported successfully! Download will begin shortly.',
    );
  });

  it('needs start and end dates only for a custom range', async () => {
    const path = '/analytics?export';
    await expectRefused(visitor, path, { ...valid, date_range: 'custom', end_date: '2025-01-31' }, 'start_date', 'Start date is required for a custom range');
    await expectRefused(visitor, path, { ...valid, date_range: 'custom', start_date: '2025-01-01' }, 'end_date', 'End date is required for a custom range');
    await expectRefused(
      visitor,
      path,
      { ...valid, date_range: 'custom', start_date: '2025-02-01', end_date: '2025-01-01' },
      'end_date',
      'End date must be on or after the start date',
    );
    await expectCreated(
      visitor,
      path,
      { ...valid, date_range: 'custom', start_date: '2025-01-01', end_date: '2025-01-31' },
      '/analytics',
      'Report exported successfully!',
    );
  });

  it('refuses unknown report types, formats and ranges', async () => {
    const path = '/analytics?export';
    await expectRefused(visitor, path, { ...valid, report_type: 'secret' }, 'report_type', 'Choose a report type');
    await expectRefused(visitor, path, { ...valid, format: 'docx' }, 'format', 'Choose a format');
    await expectRefused(visitor, path, { ...valid, date_range: 'forever' }, 'date_range', 'Choose a date range');
  });
});
