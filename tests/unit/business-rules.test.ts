// The pure rules behind the business screens: the dashboard's activity mix and
// badges (docs/product-guide.md), relative times (docs/product-guide.md) and the URL state of the lists.
import { describe, expect, it } from 'vitest';
import { accountStatusLabel, activityBadge, recentActivity, type RecentLead, type RecentQuote } from '../../app/features/dashboard/overview.ts';
import { listHref, PAGE_SIZE, pageRange, readListQuery, searchFilter, searchText, withDialog } from '../../app/lib/list-query.ts';
import { formatShortDate, relativeTime } from '../../app/lib/dates.ts';

const at = (iso: string) => `2026-03-01T${iso}:00.000Z`;
const quote = (id: string, created: string, extra: Partial<RecentQuote> = {}): RecentQuote => ({
  id,
  quote_number: `Q-2026-${id}`,
  total: 100,
  currency: 'USD',
  status: 'draft',
  created_at: at(created),
  contact_name: null,
  ...extra,
});
const lead = (id: string, created: string, extra: Partial<RecentLead> = {}): RecentLead => ({
  id,
  name: `Lead ${id}`,
  company: `Company ${id}`,
  status: 'new',
  created_at: at(created),
  ...extra,
});

describe('recent activity', () => {
  it('takes at most 3 quotes and 2 leads, newest first, and shows 4', () => {
    const items = recentActivity(
      [quote('1', '10:00'), quote('2', '09:00'), quote('3', '08:00'), quote('4', '23:00')],
      [lead('a', '09:30'), lead('b', '07:00'), lead('c', '23:30')],
    );
    // Quote 4 and lead c are beyond the 3 and 2 the lists hold (the RPC sends the newest first).
    expect(items.map((i) => i.id)).toEqual(['1', 'a', '2', '3']);
  });

  it('titles quotes by number and leads by name, with the contact or company as detail', () => {
    const [q, l] = recentActivity([quote('1', '10:00', { contact_name: 'Ada' })], [lead('a', '09:00')]);
    expect(q).toMatchObject({ kind: 'quote', title: 'Quote Q-2026-1', detail: 'Ada', status: 'draft' });
    expect(l).toMatchObject({ kind: 'lead', title: 'New lead: Lead a', detail: 'Company a', status: 'new' });
  });

  it("says 'No contact', and defaults the statuses to draft and new", () => {
    const [l, q] = recentActivity([quote('1', '09:00', { status: null })], [lead('a', '10:00', { status: null, company: null })]);
    expect(q).toMatchObject({ detail: 'No contact', status: 'draft' });
    expect(l).toMatchObject({ detail: '', status: 'new' });
  });

  it('is empty without quotes or leads', () => {
    expect(recentActivity([], [])).toEqual([]);
  });
});

describe('activity badges (docs/product-guide.md)', () => {
  it('names sent and new, greens completed and delivered, outlines the rest with the raw status', () => {
    expect(activityBadge('sent')).toEqual({ label: 'Sent', variant: 'default' });
    expect(activityBadge('new')).toEqual({ label: 'New', variant: 'secondary' });
    expect(activityBadge('completed')).toEqual({ label: 'Completed', variant: 'green' });
    expect(activityBadge('delivered')).toEqual({ label: 'Delivered', variant: 'green' });
    expect(activityBadge('signed')).toEqual({ label: 'signed', variant: 'outline' });
    expect(activityBadge('qualified')).toEqual({ label: 'qualified', variant: 'outline' });
  });

  it('capitalises the account status, Unknown when it could not be read', () => {
    expect(accountStatusLabel('trial')).toBe('Trial');
    expect(accountStatusLabel(null)).toBe('Unknown');
  });
});

describe('relative times (docs/product-guide.md)', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  it('shows days, then hours, else Just now', () => {
    expect(relativeTime('2026-03-08T11:00:00Z', now)).toBe('2 days ago');
    expect(relativeTime('2026-03-09T12:00:00Z', now)).toBe('1 day ago');
    expect(relativeTime('2026-03-09T12:00:01Z', now)).toBe('23 hours ago');
    expect(relativeTime('2026-03-10T11:00:00Z', now)).toBe('1 hour ago');
    expect(relativeTime('2026-03-10T11:00:01Z', now)).toBe('Just now');
    expect(relativeTime('2026-03-10T12:00:00Z', now)).toBe('Just now');
  });

  it('formats dates in UTC, so server and browser agree', () => {
    expect(formatShortDate('2026-06-30T23:30:00Z')).toBe('Jun 30, 2026');
    expect(formatShortDate('2026-07-01T00:30:00+02:00')).toBe('Jun 30, 2026');
  });
});

describe('list URL state', () => {
  const statuses = ['new', 'lost'] as const;
  const read = (search: string) => readListQuery(new URL(`http://x/leads${search}`), statuses);

  it('reads search text, a known status and the page', () => {
    expect(read('?q=%20acme%20&status=lost&page=3')).toEqual({ q: 'acme', status: 'lost', page: 3, sort: null });
    expect(read('')).toEqual({ q: '', status: null, page: 1, sort: null });
  });

  it('ignores an unknown status, clamps the page and caps the text', () => {
    expect(read('?status=hacked').status).toBeNull();
    expect(read('?page=-4').page).toBe(1);
    expect(read('?page=abc').page).toBe(1);
    expect(read('?page=999999').page).toBe(500);
    expect(read(`?q=${'x'.repeat(300)}`).q).toHaveLength(100);
  });

  it('asks for one row beyond the page, to know whether another follows', () => {
    expect(pageRange(1)).toEqual({ from: 0, to: PAGE_SIZE });
    expect(pageRange(3)).toEqual({ from: 2 * PAGE_SIZE, to: 3 * PAGE_SIZE });
  });

  it('quotes the text and drops anything PostgREST or LIKE could read as syntax', () => {
    expect(searchFilter('acme', ['name', 'email'])).toBe('name.ilike."*acme*",email.ilike."*acme*"');
    expect(searchFilter('50%_off*),status.eq.lost', ['name'])).toBe('name.ilike."*50 off status.eq.lost*"');
    expect(searchFilter('a"b\\c', ['name'])).toBe('name.ilike."*a b c*"');
    expect(searchFilter('  %*  ', ['name'])).toBeNull();
    expect(searchFilter("O'Brien & Co #7 +1 a@b.test", ['name'])).toBe('name.ilike."*O\'Brien & Co #7 +1 a@b.test*"');
  });

  it('gives the quote search the same cleaned text the other lists filter on', () => {
    expect(searchText('  Company   7 ')).toBe('Company 7');
    expect(searchText('50%_off*),x')).toBe('50 off x');
    expect(searchText('  %*  ')).toBeNull();
  });

  it('builds links that keep the other parameters, page 1 left out', () => {
    const query = { q: 'acme co', status: 'lost' as const, page: 2, sort: null };
    expect(listHref('/leads', query, {})).toBe('/leads?q=acme+co&status=lost&page=2');
    expect(listHref('/leads', query, { page: 1 })).toBe('/leads?q=acme+co&status=lost');
    expect(listHref('/leads', query, { status: null, q: null })).toBe('/leads?page=2');
    expect(withDialog('/leads')).toBe('/leads?new');
    expect(withDialog('/leads?q=a')).toBe('/leads?q=a&new');
  });
});
