import { describe, expect, it } from 'vitest';
import { accountOf, serviceClient, withoutGrant } from './support/backend';
import { pageText, signUpFreshAdmin, statValue } from './support/app';

// Each test works in a fresh account (signUpFreshAdmin), arranged through the
// service role, so the figures are exact whatever other suites write.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function figure(html: string, term: string): string | undefined {
  return new RegExp(`<dt[^>]*>${term}</dt><dd[^>]*>([^<]*)</dd>`).exec(html)?.[1];
}

/** The Recent Activity rows as shown: title, the detail line and the badge's text and classes. */
function activityRows(html: string) {
  const section = /Recent Activity[\s\S]*?<ul class="divide-y[^"]*">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
  return [...section.matchAll(/<p class="text-sm font-medium">([^<]*)<\/p><p class="text-xs text-muted-foreground">([^<]*)<\/p><\/div><span class="([^"]*)"[^>]*>([^<]*)<\/span>/g)].map(
    ([, title, detail, classes, badge]) => ({ title, detail, badge, classes }),
  );
}

const whole = (cents: number, currency = 'USD') =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(
    Math.round(cents / 100),
  );
const wholeDollars = (cents: number) => whole(cents);

/** Quotes' totals summed per currency, never across: the currency with most quotes first, as the dashboard shows them. */
function perCurrency(quotes: { total: number; currency: string }[]): string {
  const groups = new Map<string, { count: number; value: number }>();
  for (const q of quotes) {
    const group = groups.get(q.currency) ?? { count: 0, value: 0 };
    groups.set(q.currency, { count: group.count + 1, value: group.value + Number(q.total) });
  }
  if (groups.size === 0) return '$0';
  return [...groups]
    .sort(([a, x], [b, y]) => y.count - x.count || a.localeCompare(b))
    .map(([currency, { value }]) => whole(value, currency))
    .join(' · ');
}

describe('/dashboard figures', () => {
  it('greets by first name and shows the four cards and This Month as the database has them', async () => {
    const { visitor, email } = await signUpFreshAdmin({ first_name: 'Ada', last_name: 'Lovelace' });
    const { accountId } = await accountOf(email);
    const service = serviceClient();
    const now = Date.now();
    const lastYear = new Date(Date.UTC(new Date().getUTCFullYear() - 1, 5, 1)).toISOString();

    expect(
      (
        await service.from('leads').insert(
          [
            { status: 'new', created_at: new Date(now - HOUR).toISOString() },
            { status: 'qualified', created_at: lastYear },
            { status: 'contacted', created_at: new Date(now - 2 * HOUR).toISOString() },
            { status: 'lost', created_at: new Date(now - 3 * HOUR).toISOString() },
          ].map((lead, i) => ({ ...lead, account_id: accountId, name: `Lead ${i}`, email: `l${i}@example.test`, company: 'Co' })),
        )
      ).error,
    ).toBeNull();
    expect(
      (
        await service.from('quotes').insert(
          [
            { status: 'draft', total: 10_050, currency: 'USD', created_at: new Date(now - HOUR).toISOString() },
            { status: 'sent', total: 20_000, currency: 'EUR', created_at: new Date(now - 2 * HOUR).toISOString() },
            { status: 'viewed', total: 30_049, currency: 'USD', created_at: lastYear },
            { status: 'signed', total: 99_999, currency: 'USD', created_at: new Date(now - 3 * HOUR).toISOString() },
            { status: 'expired', total: 50_000, currency: 'GBP', created_at: lastYear },
          ].map((quote) => ({ ...quote, subtotal: quote.total, account_id: accountId })),
        )
      ).error,
    ).toBeNull();
    const { data: modules } = await service.from('modules').select('id, key').in('key', ['cpq', 'logistics', 'helpdesk']);
    await service.from('account_modules').delete().eq('account_id', accountId);
    expect(
      (
        await service.from('account_modules').insert(
          modules!.map((m) => ({ account_id: accountId, module_id: m.id, status: m.key === 'helpdesk' ? 'paused' : 'active' })),
        )
      ).error,
    ).toBeNull();

    const html = await pageText(await visitor.get('/dashboard'));

    // The expected figures, worked out here from what the database holds.
    const { data: leads } = await service.from('leads').select('status, created_at').eq('account_id', accountId);
    const { data: quotes } = await service.from('quotes').select('status, total, currency, created_at').eq('account_id', accountId);
    const { data: subscriptions } = await service.from('account_modules').select('status, monthly_price_applied').eq('account_id', accountId);
    const { data: account } = await service.from('accounts').select('subscription_status').eq('id', accountId).single();
    const monthStart = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1);
    const thisMonth = <T extends { created_at: string }>(rows: T[]) => rows.filter((r) => new Date(r.created_at).getTime() >= monthStart);
    const active = subscriptions!.filter((s) => s.status === 'active');

    // Her first session: no sign-in before this one.
    expect(html).toContain('Welcome, Ada');
    expect(html).not.toContain('Welcome back');
    expect(statValue(html, 'Active Leads')).toBe(String(leads!.filter((l) => l.status !== 'lost').length));
    expect(statValue(html, 'Quote Pipeline')).toBe(perCurrency(quotes!.filter((q) => ['draft', 'sent', 'viewed'].includes(q.status))));
    expect(statValue(html, 'Monthly Revenue')).toBe(wholeDollars(active.reduce((a, s) => a + s.monthly_price_applied, 0)));
    expect(html).toContain(`${active.length} active modules`);
    const status = account!.subscription_status as string;
    expect(statValue(html, 'Account Status')).toBe(status.charAt(0).toUpperCase() + status.slice(1));
    expect(figure(html, 'Quotes created')).toBe(String(thisMonth(quotes!).length));
    expect(figure(html, 'Quote value')).toBe(perCurrency(thisMonth(quotes!)));
    expect(figure(html, 'New leads')).toBe(String(thisMonth(leads!).length));
    // Sanity: the arrangement really exercises every filter, and euros are not counted as dollars.
    expect(statValue(html, 'Quote Pipeline')).toBe('$401 · €200');
    expect(statValue(html, 'Monthly Revenue')).toBe('$598');
    // Active Modules: the account's subscriptions, as settings/modules keeps them.
    const { data: names } = await service.from('modules').select('key, name').in('key', ['cpq', 'logistics', 'helpdesk']);
    const nameOf = (key: string) => names!.find((m) => m.key === key)!.name;
    expect(html).toMatch(new RegExp(`<span>${nameOf('cpq')}</span><span[^>]*>Active</span>`));
    expect(html).toMatch(new RegExp(`<span>${nameOf('logistics')}</span><span[^>]*>Active</span>`));
    expect(html).toMatch(new RegExp(`<span>${nameOf('helpdesk')}</span><span[^>]*>Paused</span>`));
  });

  it("says 'User' without a first name, and shows a new account no sample figures: no modules, no support cases, every step to do", async () => {
    const { visitor } = await signUpFreshAdmin({ first_name: '', last_name: '' });
    const html = await pageText(await visitor.get('/dashboard'));
    expect(html).toContain('Welcome, User');
    expect(html).toContain('href="/quotes?new"');
    expect(html).toContain('Create New Quote');
    expect(html).toContain('href="/leads"');
    expect(html).toContain('Go to Leads');
    expect(statValue(html, 'Quote Pipeline')).toBe('$0');
    expect(html).toContain('No modules yet.');
    expect(html).toContain('href="/settings/modules"');
    expect(html).toContain('No support cases yet.');
    for (const sample of ['Open cases', '2.4h', '4.8/5']) expect(html).not.toContain(sample);
    expect(html).toContain('No activity yet.');
    expect(html).toContain('1 of 4 steps done');
    // Each step to do links to where it is done.
    expect(html).toMatch(/<a[^>]*href="\/leads\?new"[^>]*>Add your first lead<\/a><span class="sr-only">\(to do\)/);
    expect(html).toMatch(/<a[^>]*href="\/quotes\?new"[^>]*>Create your first quote<\/a><span class="sr-only">\(to do\)/);
    expect(html).toMatch(/<a[^>]*href="\/clients\?new"[^>]*>Add a client<\/a><span class="sr-only">\(to do\)/);
  });
});

describe('/dashboard recent activity', () => {
  it('mixes the 3 newest quotes and 2 newest leads, newest first, at most 4, with relative times and badges', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const service = serviceClient();
    const now = Date.now();
    const ago = (ms: number) => new Date(now - ms).toISOString();
    // Quotes at 1 h, 2 days, 3 days and 4 days; leads just now, 5 days and 6 days.
    // Expected: the newest lead, then the three newest quotes (the 4-day quote is
    // not among the 3 newest; the 5-day lead is among the 2 newest but falls off at 4).
    const { error: quoteError } = await service.from('quotes').insert([
      { account_id: accountId, status: 'sent', total: 100, subtotal: 100, created_at: ago(HOUR + 60_000) },
      { account_id: accountId, status: 'signed', total: 100, subtotal: 100, created_at: ago(2 * DAY + HOUR) },
      { account_id: accountId, status: 'draft', total: 100, subtotal: 100, created_at: ago(3 * DAY + HOUR) },
      { account_id: accountId, status: 'viewed', total: 100, subtotal: 100, created_at: ago(4 * DAY + HOUR) },
    ]);
    expect(quoteError).toBeNull();
    const { error: leadError } = await service.from('leads').insert([
      { account_id: accountId, name: 'Newest Lead', email: 'a@example.test', company: 'Fresh Co', status: 'new', created_at: ago(60_000) },
      { account_id: accountId, name: 'Older Lead', email: 'b@example.test', company: 'Old Co', status: 'qualified', created_at: ago(5 * DAY) },
      { account_id: accountId, name: 'Oldest Lead', email: 'c@example.test', company: 'Older Co', status: 'lost', created_at: ago(6 * DAY) },
    ]);
    expect(leadError).toBeNull();
    const { data: quotes } = await service.from('quotes').select('quote_number, created_at').eq('account_id', accountId).order('created_at', { ascending: false });

    const rows = activityRows(await pageText(await visitor.get('/dashboard')));
    expect(rows.map(({ title, detail, badge }) => ({ title, detail, badge }))).toEqual([
      { title: 'New lead: Newest Lead', detail: 'Fresh Co · Just now', badge: 'New' },
      { title: `Quote ${quotes![0].quote_number}`, detail: 'No contact · 1 hour ago', badge: 'Sent' },
      { title: `Quote ${quotes![1].quote_number}`, detail: 'No contact · 2 days ago', badge: 'signed' },
      { title: `Quote ${quotes![2].quote_number}`, detail: 'No contact · 3 days ago', badge: 'draft' },
    ]);
    // As docs/product-guide.md says: anything but sent, new, completed or delivered is an outlined badge with the raw status.
    expect(rows[2].classes).toContain('border-border');
    expect(rows[1].classes).not.toContain('border-border');
  });

  it('shows leads when there are no quotes, with their company', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    await serviceClient()
      .from('leads')
      .insert([
        { account_id: accountId, name: 'Only Lead', email: 'o@example.test', company: 'Solo Co', status: 'contacted', created_at: new Date(Date.now() - 3 * HOUR).toISOString() },
      ]);
    const html = await pageText(await visitor.get('/dashboard'));
    expect(activityRows(html).map(({ title, detail, badge }) => ({ title, detail, badge }))).toEqual([
      { title: 'New lead: Only Lead', detail: 'Solo Co · 3 hours ago', badge: 'contacted' },
    ]);
    expect(html).toContain('Add your first lead</span><span class="sr-only">(done)');
    expect(html).toContain('Create your first quote</a><span class="sr-only">(to do)');
    expect(html).toContain('2 of 4 steps done');
  });
});

describe('/dashboard when a read fails', () => {
  it('logs it and still renders the page, with empty figures', async () => {
    const { visitor, email } = await signUpFreshAdmin({ first_name: 'Grace', last_name: 'Hopper' });
    const { accountId } = await accountOf(email);
    await serviceClient().from('leads').insert({ account_id: accountId, name: 'Hidden', email: 'h@example.test', company: 'Co' });
    // Break the read for real: the database refuses the overview to signed-in users.
    const response = await withoutGrant('execute', 'function public.dashboard_overview()', () => visitor.get('/dashboard'));
    expect(response.status).toBe(200);
    const html = await pageText(response);
    expect(html).toContain('Welcome back, Grace'); // the overview (and with it the first visit) is unknown
    expect(statValue(html, 'Active Leads')).toBe('0');
    expect(statValue(html, 'Account Status')).toBe('Unknown');
    expect(html).toContain('No activity yet.');
    expect(html).not.toContain('Hidden');

    // Repaired, the same page shows the lead again: the failure was the read, not the data.
    expect(statValue(await pageText(await visitor.get('/dashboard')), 'Active Leads')).toBe('1');
  });

});

describe('/dashboard Support Queue', () => {
  it("shows the Support Queue from the account's conversations: open, unassigned, the oldest waiting (decision 072), average first response and CSAT (decision 083)", async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const service = serviceClient();
    const { accountId } = await accountOf(email);
    const { data: contact, error } = await service.from('contacts').insert({ account_id: accountId, name: 'Queue Customer', email: 'queue@customer.test' }).select('id').single();
    if (error) throw new Error(error.message);
    const waitingSince = new Date(Date.now() - 2 * DAY - HOUR).toISOString();
    const { error: insertError } = await service.from('conversations').insert([
      { account_id: accountId, contact_id: contact.id, subject: 'Old one', status: 'open', resolved_at: null, last_message_at: waitingSince },
      { account_id: accountId, contact_id: contact.id, subject: 'New one', status: 'open', resolved_at: null, last_message_at: new Date().toISOString() },
    ]);
    if (insertError) throw new Error(insertError.message);
    // Decision 083: answered 2.5 hours after it came in, and rated 4 (a row of its own: a bulk insert sends every key).
    const { data: done, error: doneError } = await service.from('conversations').insert({
      account_id: accountId, contact_id: contact.id, subject: 'Done', status: 'resolved', resolved_at: new Date().toISOString(), last_message_at: waitingSince,
      created_at: new Date(Date.now() - 3 * HOUR).toISOString(), first_responded_at: new Date(Date.now() - HOUR / 2).toISOString(),
    }).select('id').single();
    if (doneError) throw new Error(doneError.message);
    const { error: csatError } = await service.from('csat_responses').insert({
      conversation_id: (done as { id: string }).id, account_id: accountId, token_hash: '\\x00112233445566778899aabbccddeeff', score: 4,
      sent_at: new Date(Date.now() - HOUR).toISOString(), answered_at: new Date().toISOString(),
    });
    if (csatError) throw new Error(csatError.message);
    const html = await pageText(await visitor.get('/dashboard'));
    expect(figure(html, 'Open cases')).toBe('2');
    expect(figure(html, 'Unassigned')).toBe('2');
    expect(figure(html, 'Oldest waiting')).toBe('2 days ago');
    expect(figure(html, 'Average first response')).toBe('2.5 h');
    expect(figure(html, 'Satisfaction')).toBe('4.0/5');
    expect(html).toContain('href="/messages"');
    expect(html).not.toContain('No support cases yet.');
  });
});
