import { beforeAll, describe, expect, it } from 'vitest';
import { signUpFreshAdmin, type Visitor } from './support/app';
import { accountOf, runSql } from './support/backend';
import { control, demoAdmin, expectRefused, page, readable, selectedOption } from './support/module-screens';

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
  it('shows a fresh account no sample figure, only its empty state', async () => {
    const { visitor: fresh } = await signUpFreshAdmin();
    const html = await page(fresh, '/analytics');
    const text = readable(html);
    for (const sample of ['$284,500', '24.8%', '142', '$8,450', 'Top Performing Services', 'Logistics Integration', 'Website 187']) {
      expect(text).not.toContain(sample);
    }
    expect(html).toContain('data-empty=""');
    expect(text).toContain('Quotes 0');
    expect(text).toContain('No quotes were made in this period.');
    expect(text).not.toContain('not available in this demo');
  });

  it("shows the account's own figures for a custom range, per currency, with the previous period", async () => {
    const { visitor: fresh, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    await runSql(`update public.accounts set timezone = 'America/New_York' where id = '${accountId}'`);
    await runSql(`insert into public.leads (account_id, name, email, company, source, status, created_at) values
        ('${accountId}', 'a', 'a@l.test', 'Co', 'referral', 'new', '2026-05-01T03:30:00Z'),
        ('${accountId}', 'b', 'b@l.test', 'Co', 'website', 'new', '2026-05-01T04:30:00Z'),
        ('${accountId}', 'c', 'c@l.test', 'Co', 'website', 'new', '2026-03-15T12:00:00Z')`);
    // Totals as given (the invoice triggers recompute them from lines): triggers off for this transaction only.
    await runSql(`do $$ begin
      perform set_config('session_replication_role', 'replica', true);
      insert into public.invoices (account_id, client_name, client_email, currency, total, due_date, status, created_at) values
        ('${accountId}', 'C', 'c@c.test', 'USD', 120000, '2026-06-01', 'sent', '2026-04-10T12:00:00Z'),
        ('${accountId}', 'C', 'c@c.test', 'EUR', 50000, '2026-06-01', 'sent', '2026-04-11T12:00:00Z');
      -- Rows written with triggers off: the money rollups are rebuilt from them.
      perform private.rebuild_analytics_money_rollups('${accountId}');
    end $$`);
    // 1 May 03:30 UTC is 30 April 23:30 in New York: in April; 04:30 UTC is 1 May 00:30 there.
    const html = await page(fresh, '/analytics?range=custom&from=2026-04-01&to=2026-04-30');
    const text = readable(html);
    expect(text).toContain('New Leads 1');
    expect(text).toContain('Apr 1, 2026 – Apr 30, 2026 (America/New_York), compared with Mar 2, 2026 – Mar 31, 2026.');
    expect(text).toContain('Invoices in EUR Invoiced €500');
    expect(text).toContain('Invoices in USD Invoiced $1,200');
    expect(text).not.toContain('$1,700');
    expect(text).toContain('New leads 1 Previous period: 1');
    // The chart and its table: one bar per source.
    expect(html.match(/<svg[^>]*role="img"[^>]*data-chart="bar"/g)).toHaveLength(2);
    expect(text).toContain('Source Leads Referral 1');
    expect(html).not.toContain('data-empty=""');
  });

  it('keeps the range in the URL: a preset, and a wrong custom range falls back with a reason', async () => {
    const html = await page(visitor, '/analytics?range=last_7_days');
    expect(selectedOption(html, 'range')).toBe('last_7_days');
    const form = /<form[^>]*aria-label="Period shown"[^>]*>/.exec(html)?.[0] ?? '';
    expect(form).toContain('method="get"');
    expect(form).toContain('action="/analytics"');
    const wrong = readable(await page(visitor, '/analytics?range=custom&from=2026-05-01&to=2026-04-01'));
    expect(wrong).toContain('End date must be on or after the start date. Showing the last 30 days.');
    const unknown = readable(await page(visitor, '/analytics?range=forever'));
    expect(unknown).toContain('Choose a date range. Showing the last 30 days.');
  });

  it('shows helpdesk first response, on-time delivery and compliance, with empty states for an account without them', async () => {
    const { visitor: fresh, email } = await signUpFreshAdmin();
    const empty = readable(await page(fresh, '/analytics'));
    expect(empty).toContain('No shipment was delivered in this period.');
    expect(empty).toContain('No compliance requirements are tracked yet.');
    expect(empty).toContain('SLA met No SLA target fell due in this period.');
    expect(empty).toContain('CSAT No customer rated a conversation in this period.');
    const { accountId } = await accountOf(email);
    await runSql(`with c as (insert into public.contacts (account_id, name, email) values ('${accountId}', 'C', 'c@c.test') returning id)
      insert into public.conversations (account_id, contact_id, subject, created_at, first_responded_at)
      select '${accountId}', id, 'Hi', '2026-04-02T10:00:00Z', '2026-04-02T13:00:00Z' from c`);
    // SLA: the first response above was met (due the next business day, 3 April); a second conversation's first
    // response was breached on 6 April. CSAT: 4 and 5 given in April.
    await runSql(`with c as (insert into public.contacts (account_id, name, email) values ('${accountId}', 'D', 'd@c.test') returning id),
      v as (insert into public.conversations (account_id, contact_id, subject, created_at)
            select '${accountId}', id, 'Late', '2026-04-03T10:00:00Z' from c returning id)
      insert into public.sla_breaches (account_id, conversation_id, target, due_at) select '${accountId}', id, 'first_response', '2026-04-06T10:00:00Z' from v`);
    await runSql(`insert into public.csat_responses (conversation_id, account_id, token_hash, score, sent_at, answered_at)
      select id, account_id, decode(md5(id::text), 'hex'), case when subject = 'Hi' then 4 else 5 end, '2026-04-08T10:00:00Z', '2026-04-10T10:00:00Z'
        from public.conversations where account_id = '${accountId}'`);
    await runSql(`insert into public.shipments (account_id, origin, destination, weight, description, estimated_delivery, status, delivered_at) values
      ('${accountId}', 'A', 'B', 1, 'Box', '2026-04-03', 'Delivered', '2026-04-03T10:00:00Z'),
      ('${accountId}', 'A', 'B', 1, 'Box', '2026-04-03', 'Delivered', '2026-04-06T10:00:00Z')`);
    await runSql(`insert into public.compliance_items (account_id, title, responsible_team, first_review_date, next_review_date, description)
      values ('${accountId}', 'Policy', 'Ops', '2020-01-01', '2020-01-01', 'Check')`);
    const text = readable(await page(fresh, '/analytics?range=custom&from=2026-04-01&to=2026-04-30'));
    expect(text).toContain('First response 3 h');
    expect(text).toContain('1 of 2 answered');
    expect(text).toContain('SLA met 50% Previous period: — 1 of 2 targets met');
    expect(text).toContain('CSAT 4.5 / 5 Previous period: — 2 responses');
    expect(text).toContain('On-time delivery 50%');
    expect(text).toContain('1 of 2 with an estimated date');
    expect(text).toContain('Coverage 0%');
    expect(text).toContain('Overdue reviews 1');
  });

  it('opens Export Report at /analytics?export: pdf, last 30 days, charts and summary ticked', async () => {
    const list = await page(visitor, '/analytics');
    expect(list).toMatch(/<a[^>]*href="(\/analytics)?\?range=last_30_days&amp;export"/);
    const html = await page(visitor, '/analytics?export');
    expect(html).toContain('role="dialog"');
    expect(selectedOption(html, 'format')).toBe('pdf');
    expect(selectedOption(html, 'date_range')).toBe('last_30_days');
    expect(control(html, 'include_charts')).toContain('checked');
    expect(control(html, 'include_summary')).toContain('checked');
    expect(control(html, 'start_date')).not.toContain('required');
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
    const posted = await visitor.post(path, { ...valid, date_range: 'custom', start_date: '2025-01-01', end_date: '2025-01-31' });
    expect(posted.status).toBe(303);
    const file = await visitor.get(posted.headers.get('Location')!);
    expect(file.status).toBe(200);
    expect(file.headers.get('Content-Disposition')).toBe('attachment; filename="sales-report-2025-01-01-to-2025-01-31.pdf"');
  });

  it('refuses unknown report types, formats and ranges', async () => {
    const path = '/analytics?export';
    await expectRefused(visitor, path, { ...valid, report_type: 'secret' }, 'report_type', 'Choose a report type');
    await expectRefused(visitor, path, { ...valid, format: 'docx' }, 'format', 'Choose a format');
    await expectRefused(visitor, path, { ...valid, date_range: 'forever' }, 'date_range', 'Choose a date range');
  });

  it('shows Monthly Goals an admin sets on Settings → Account, with this month\'s progress, and refuses a wrong goal', async () => {
    const { visitor: fresh, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const empty = readable(await page(fresh, '/analytics'));
    expect(empty).toContain('No monthly goals yet. Set them on Settings → Account');
    const goals = { intent: 'goals', revenue_usd: '5000', revenue_eur: '', revenue_gbp: '', new_leads: '4', new_clients: '', signed_quotes: '' };
    await expectRefused(fresh, '/settings/account', { ...goals, new_leads: '2.5' }, 'new_leads', 'New leads must be a whole number from 1 to 1,000,000,000, or blank for no goal');
    const saved = await fresh.post('/settings/account', goals);
    expect(saved.status).toBe(302);
    await runSql(`insert into public.leads (account_id, name, email, company, source, status) values ('${accountId}', 'Now', 'n@l.test', 'Co', 'website', 'new')`);
    const text = readable(await page(fresh, '/analytics'));
    expect(text).toContain('Monthly Goals');
    expect(text).toContain('Revenue in USD $0 of $5,000 (0%)');
    expect(text).toContain('New leads 1 of 4 (25%)');
    expect(text).not.toContain('Revenue in EUR');
    const form = await page(fresh, '/settings/account');
    expect(control(form, 'revenue_usd')).toContain('value="5000.00"');
  });
});
