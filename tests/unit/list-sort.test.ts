// The record table's sort from the URL (issue 32, decision 053): only the
// columns a list allows (each has an index), anything else is the list's own
// order, never an error; header links turn a sorted column around and keep
// the search and filter, back at page 1.
import { describe, expect, it } from 'vitest';
import { listHref, readListQuery, readListSort, sortHref } from '../../app/lib/list-query.ts';

const KEYS = ['name', 'total', 'created_at'] as const;
const sortOf = (search: string) => readListSort(new URLSearchParams(search), KEYS);

describe('the sort of a list from its URL', () => {
  it('reads an allowed column and its direction', () => {
    expect(sortOf('?sort=total&dir=desc')).toEqual({ key: 'total', dir: 'desc' });
    expect(sortOf('?sort=name&dir=asc')).toEqual({ key: 'name', dir: 'asc' });
  });

  it('reads a column without a direction, or with a bad one, as ascending', () => {
    expect(sortOf('?sort=name')).toEqual({ key: 'name', dir: 'asc' });
    expect(sortOf('?sort=name&dir=sideways')).toEqual({ key: 'name', dir: 'asc' });
    expect(sortOf('?sort=name&dir=DESC')).toEqual({ key: 'name', dir: 'asc' });
  });

  it('falls back to the list’s own order for a column it does not allow', () => {
    expect(sortOf('')).toBeNull();
    expect(sortOf('?dir=desc')).toBeNull();
    expect(sortOf('?sort=email&dir=desc')).toBeNull();
    expect(sortOf('?sort=')).toBeNull();
    expect(sortOf('?sort=Total')).toBeNull();
    expect(sortOf('?sort=total.desc,id')).toBeNull();
    expect(sortOf('?sort=total;drop%20table%20leads')).toBeNull();
    expect(sortOf(`?sort=${'x'.repeat(10_000)}`)).toBeNull();
    expect(readListSort(new URLSearchParams('?sort=name'), [])).toBeNull();
  });

  it('takes the first of a repeated parameter', () => {
    expect(sortOf('?sort=total&sort=name&dir=desc&dir=asc')).toEqual({ key: 'total', dir: 'desc' });
  });

  it('is part of the list query; a list without sort keys never sorts', () => {
    const url = new URL('https://x.test/leads?q=acme&status=lost&page=3&sort=name&dir=desc');
    expect(readListQuery(url, ['lost'], KEYS)).toEqual({ q: 'acme', status: 'lost', page: 3, sort: { key: 'name', dir: 'desc' } });
    expect(readListQuery(url, ['lost']).sort).toBeNull();
  });
});

describe('the header links of a sorted list', () => {
  const query = { q: 'acme', status: 'lost', page: 3, sort: null };

  it('sorts a column in its first direction, back at page 1, keeping search and filter', () => {
    expect(sortHref('/leads', query, 'name')).toBe('/leads?q=acme&status=lost&sort=name&dir=asc');
    expect(sortHref('/invoices', query, 'total', 'desc')).toBe('/invoices?q=acme&status=lost&sort=total&dir=desc');
  });

  it('turns the sorted column around, and leaves another column in its first direction', () => {
    const sorted = { ...query, sort: { key: 'total', dir: 'desc' as const } };
    expect(sortHref('/invoices', sorted, 'total', 'desc')).toBe('/invoices?q=acme&status=lost&sort=total&dir=asc');
    const ascending = { ...query, sort: { key: 'total', dir: 'asc' as const } };
    expect(sortHref('/invoices', ascending, 'total', 'desc')).toBe('/invoices?q=acme&status=lost&sort=total&dir=desc');
    expect(sortHref('/invoices', sorted, 'name')).toBe('/invoices?q=acme&status=lost&sort=name&dir=asc');
  });

  it('keeps the sort on the pager’s and the filter’s links', () => {
    const sorted = { ...query, sort: { key: 'name', dir: 'desc' as const } };
    expect(listHref('/leads', sorted, { page: 4 })).toBe('/leads?q=acme&status=lost&sort=name&dir=desc&page=4');
    expect(listHref('/leads', sorted, { q: null, status: null, page: null })).toBe('/leads?sort=name&dir=desc');
  });
});
