// Reading through /rest/v1 with supabase-js: columns, embedding, every filter
// operator, ordering, paging, counting and single-object responses.
import { expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { describeOnEachDatabase } from './harness.ts';

type BookQuery = ReturnType<ReturnType<SupabaseClient['from']>['select']>;

describeOnEachDatabase('REST reads', (fx) => {
  const books = () => fx().service.from('books');

  it('selects columns, aliases, casts and JSON paths, formatted like PostgREST', async () => {
    const { data, error } = await books()
      .select('id, name:title, price, pages_text:pages::text, isbn:metadata->>isbn, first_award:metadata->awards->0, genres, in_print')
      .eq('id', 1)
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({
      id: 1,
      name: 'A Wizard of Earthsea',
      price: 9.99,
      pages_text: '183',
      isbn: '978-0',
      first_award: 'Boston Globe',
      genres: ['fantasy'],
      in_print: true,
    });
  });

  it('selects * with numbers, jsonb, arrays, dates and ISO timestamps', async () => {
    const { data } = await fx().service.from('authors').select('*').eq('id', 1).single();
    expect(data).toEqual({ id: 1, name: 'Ursula K. Le Guin', country: 'US', born: '1929-10-21', created_at: '2024-01-02T03:04:05.123456+00:00' });
    const { data: book } = await books().select().eq('id', 1).single();
    expect(book.metadata).toEqual({ isbn: '978-0', awards: ['Boston Globe'] });
    expect(book.author_id).toBe(1);
  });

  it('embeds to-one as an object (null when absent) and to-many as an array', async () => {
    const { data, error } = await books()
      .select('title, author:authors!author_id(name), editor:authors!editor_id(name), reviews(stars)')
      .in('id', [1, 2])
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'A Wizard of Earthsea', author: { name: 'Ursula K. Le Guin' }, editor: { name: 'Stanisław Lem' }, reviews: [{ stars: 5 }, { stars: 4 }] },
      { title: 'The Left Hand of Darkness', author: { name: 'Ursula K. Le Guin' }, editor: null, reviews: [{ stars: 5 }] },
    ]);
  });

  it('embeds through a foreign key column name and through the constraint name', async () => {
    const byColumn = await books().select('title, author_id(name)').eq('id', 4).single();
    expect(byColumn.data).toEqual({ title: 'Solaris', author_id: { name: 'Stanisław Lem' } });
    const byConstraint = await books().select('title, writer:authors!books_author_id_fkey(name)').eq('id', 4).single();
    expect(byConstraint.data).toEqual({ title: 'Solaris', writer: { name: 'Stanisław Lem' } });
  });

  it('embeds one-to-many in reverse, one-to-one as an object, many-to-many through a junction', async () => {
    const { data, error } = await fx()
      .service.from('authors')
      .select('name, author_profiles(bio), books!author_id(title, tags(label))')
      .eq('id', 2)
      .single();
    expect(error).toBeNull();
    expect(data!.author_profiles).toEqual({ bio: 'Wrote Solaris' });
    expect(data!.books).toHaveLength(2);
    const solaris = data!.books.find((b: { title: string }) => b.title === 'Solaris');
    expect(solaris!.tags).toEqual([{ label: 'classic' }]);
  });

  it('nests embeds several levels deep', async () => {
    const { data } = await fx()
      .service.from('reviews')
      .select('stars, book:books(title, author:authors!author_id(name, author_profiles(bio)))')
      .eq('body', 'Timeless')
      .single();
    expect(data).toEqual({ stars: 5, book: { title: 'A Wizard of Earthsea', author: { name: 'Ursula K. Le Guin', author_profiles: { bio: 'Wrote Earthsea' } } } });
  });

  it('filters embedded resources, and !inner drops parents without a match', async () => {
    const left = await fx().service.from('authors').select('name, books!author_id(title)').eq('books.in_print', false).order('id');
    expect(left.data).toHaveLength(4);
    expect(left.data![0].books).toEqual([{ title: 'The Dispossessed' }]);
    expect(left.data![1].books).toEqual([]);

    const inner = await fx().service.from('authors').select('name, books!author_id!inner(title)').eq('books.in_print', false);
    expect(inner.data).toEqual([{ name: 'Ursula K. Le Guin', books: [{ title: 'The Dispossessed' }] }]);

    const toOne = await books().select('title, author:authors!author_id!inner(name)').eq('author.country', 'PL').order('id');
    expect(toOne.data!.map((b) => b.title)).toEqual(['Solaris', 'The Cyberiad']);
  });

  it('filters parents on the presence of embedded rows (embed=not.is.null)', async () => {
    const { data } = await fx().service.from('authors').select('name, author_profiles(bio)').not('author_profiles', 'is', null).order('id');
    expect(data!.map((a) => a.name)).toEqual(['Ursula K. Le Guin', 'Stanisław Lem']);
  });

  it('orders, limits and offsets embedded resources', async () => {
    const { data } = await fx()
      .service.from('authors')
      .select('name, books!author_id(title)')
      .eq('id', 1)
      .order('pages', { referencedTable: 'books', ascending: false })
      .limit(2, { referencedTable: 'books' })
      .single();
    expect(data!.books).toEqual([{ title: 'The Dispossessed' }, { title: 'The Left Hand of Darkness' }]);
  });

  it.each([
    ['eq', (q: BookQuery) => q.eq('pages', 204), [4]],
    ['neq', (q: BookQuery) => q.neq('author_id', 1), [4, 5, 6, 7]],
    ['gt', (q: BookQuery) => q.gt('pages', 300), [3, 7]],
    ['gte', (q: BookQuery) => q.gte('pages', 295), [3, 5, 7]],
    ['lt', (q: BookQuery) => q.lt('pages', 204), [1]],
    ['lte', (q: BookQuery) => q.lte('pages', 204), [1, 4]],
    ['like', (q: BookQuery) => q.like('title', '%Dark%'), [2]],
    ['ilike', (q: BookQuery) => q.ilike('title', '%the%'), [2, 3, 5, 7]],
    ['is null', (q: BookQuery) => q.is('price', null), [3]],
    ['is true', (q: BookQuery) => q.is('in_print', false), [3]],
    ['in', (q: BookQuery) => q.in('id', [2, 5, 999]), [2, 5]],
    ['in with commas and quotes', (q: BookQuery) => q.in('title', ['Solaris', 'Kindred, "again"']), [4]],
    ['not.eq', (q: BookQuery) => q.not('author_id', 'eq', 1), [4, 5, 6, 7]],
    ['not.in', (q: BookQuery) => q.not('id', 'in', '(1,2,3,4,5)'), [6, 7]],
    ['not.is', (q: BookQuery) => q.not('metadata', 'is', null), [1, 2, 4, 6]],
    ['contains (array)', (q: BookQuery) => q.contains('genres', ['scifi', 'humor']), [5]],
    ['contained by (array)', (q: BookQuery) => q.containedBy('genres', ['scifi', 'utopia', 'fantasy']), [1, 2, 3, 4]],
    ['overlaps', (q: BookQuery) => q.overlaps('genres', ['fantasy', 'dystopia']), [1, 7]],
    ['contains (jsonb)', (q: BookQuery) => q.contains('metadata', { isbn: '978-2' }), [4]],
    ['match (regex)', (q: BookQuery) => q.match({ author_id: 2, in_print: true }), [4, 5]],
    ['imatch', (q: BookQuery) => q.filter('title', 'imatch', '^the (left|cyb)'), [2, 5]],
    ['json path filter', (q: BookQuery) => q.eq('metadata->>isbn', '978-3'), [6]],
    ['full-text search', (q: BookQuery) => q.textSearch('title', 'parable & sower', { config: 'english' }), [7]],
    ['websearch', (q: BookQuery) => q.textSearch('title', 'wizard earthsea', { type: 'websearch' }), [1]],
    ['like(any)', (q: BookQuery) => q.likeAnyOf('title', ['Sol%', 'Kin%']), [4, 6]],
    ['ilike(all)', (q: BookQuery) => q.ilikeAllOf('title', ['%the%', '%of%']), [2, 7]],
    ['isdistinct', (q: BookQuery) => q.filter('editor_id', 'isdistinct', '1'), [1, 2, 3, 5, 6, 7]],
    ['or', (q: BookQuery) => q.or('pages.lt.190,title.eq.Kindred'), [1, 6]],
    ['nested and inside or', (q: BookQuery) => q.or('id.eq.1,and(author_id.eq.2,pages.gt.250)'), [1, 5]],
    ['not.and inside or', (q: BookQuery) => q.or('not.and(author_id.lte.2,pages.gt.200),id.eq.2'), [1, 2, 6, 7]],
    ['or with quoted values and in', (q: BookQuery) => q.or('title.eq."Kindred",id.in.(4,5)'), [4, 5, 6]],
    ['several filters are and-ed', (q: BookQuery) => q.eq('author_id', 1).gt('pages', 200).eq('in_print', true), [2]],
  ])('filters with %s', async (_name, apply, ids) => {
    const { data, error } = await apply(books().select('id')).order('id');
    expect(error).toBeNull();
    expect((data as { id: number }[]).map((b) => b.id)).toEqual(ids);
  });

  it('negates a whole logic tree with not.or=', async () => {
    const response = await fx().fetch('/rest/v1/books?select=id&order=id&not.or=(author_id.eq.1,author_id.eq.2)');
    expect((await response.json()).map((b: { id: number }) => b.id)).toEqual([6, 7]);
  });

  it('orders by several columns, directions and null placement', async () => {
    const nullsFirst = await books().select('id').order('price', { ascending: true, nullsFirst: true }).limit(2);
    expect(nullsFirst.data!.map((b) => b.id)).toEqual([3, 1]);
    const byAuthorThenPages = await books().select('id').order('author_id', { ascending: false }).order('pages').limit(3);
    expect(byAuthorThenPages.data!.map((b) => b.id)).toEqual([6, 7, 4]);
    const descNullsLast = await books().select('id').order('price', { ascending: false, nullsFirst: false }).limit(7);
    expect(descNullsLast.data!.at(-1)!.id).toBe(3);
  });

  it('orders by a column of an embedded to-one resource', async () => {
    const { data, error } = await books().select('id, author:authors!author_id(name)').order('author(name)', { ascending: false }).order('id').limit(3);
    expect(error).toBeNull();
    expect((data as unknown as { author: { name: string } }[]).map((b) => b.author.name)).toEqual(['Ursula K. Le Guin', 'Ursula K. Le Guin', 'Ursula K. Le Guin']);
    const asc = await fx().fetch('/rest/v1/books?select=id,author:authors!author_id(name)&order=author(name).asc,id.asc&limit=2');
    expect((await asc.json()).map((b: { id: number }) => b.id)).toEqual([6, 7]);
  });

  it('pages with limit, range and the Range header', async () => {
    const limited = await books().select('id').order('id').limit(2);
    expect(limited.data!.map((b) => b.id)).toEqual([1, 2]);
    const ranged = await books().select('id').order('id').range(2, 4);
    expect(ranged.data!.map((b) => b.id)).toEqual([3, 4, 5]);
    const header = await fx().fetch('/rest/v1/books?select=id&order=id', { headers: { Range: '5-9', 'Range-Unit': 'items' } });
    expect((await header.json()).map((b: { id: number }) => b.id)).toEqual([6, 7]);
    expect(header.headers.get('content-range')).toBe('5-6/*');
  });

  it('counts exactly with Content-Range, with and without rows, and head requests', async () => {
    const page = await books().select('id', { count: 'exact' }).order('id').range(0, 2);
    expect(page.count).toBe(7);
    expect(page.status).toBe(206);
    const all = await books().select('id', { count: 'exact' });
    expect(all.count).toBe(7);
    expect(all.status).toBe(200);
    const none = await books().select('id', { count: 'exact' }).eq('title', 'nothing');
    expect(none.count).toBe(0);
    expect(none.data).toEqual([]);
    const head = await books().select('*', { count: 'exact', head: true }).eq('author_id', 1);
    expect(head.count).toBe(3);
    expect(head.data).toBeNull();
    const raw = await fx().fetch('/rest/v1/books?select=id&author_id=eq.2', { headers: { Prefer: 'count=exact' } });
    expect(raw.headers.get('content-range')).toBe('0-1/2');
    const empty = await fx().fetch('/rest/v1/books?select=id&id=eq.0', { headers: { Prefer: 'count=exact' } });
    expect(empty.headers.get('content-range')).toBe('*/0');
  });

  it('answers an offset past the end with 416', async () => {
    const response = await fx().fetch('/rest/v1/books?select=id&offset=50&limit=5', { headers: { Prefer: 'count=exact' } });
    expect(response.status).toBe(416);
    expect((await response.json()).code).toBe('PGRST103');
  });

  it('single() returns an object, or 406 PGRST116 when not exactly one row', async () => {
    const one = await books().select('title').eq('id', 6).single();
    expect(one.data).toEqual({ title: 'Kindred' });
    const many = await books().select('title').eq('author_id', 1).single();
    expect(many.status).toBe(406);
    expect(many.error?.code).toBe('PGRST116');
    const none = await books().select('title').eq('id', 0).single();
    expect(none.status).toBe(406);
    expect(none.error?.details).toBe('The result contains 0 rows');
  });

  it('maybeSingle() returns null for no row and the row for one', async () => {
    const none = await books().select('title').eq('id', 0).maybeSingle();
    expect(none.error).toBeNull();
    expect(none.data).toBeNull();
    const one = await books().select('title').eq('id', 4).maybeSingle();
    expect(one.data).toEqual({ title: 'Solaris' });
    const many = await books().select('title').eq('author_id', 2).maybeSingle();
    expect(many.error?.code).toBe('PGRST116');
  });

  it('strips nulls when asked', async () => {
    const { data } = await fx().service.from('authors').select('name, country').eq('id', 4).stripNulls();
    expect(data).toEqual([{ name: 'Nobody Yet' }]);
  });

  it('accepts the public schema profile and refuses others with PGRST106', async () => {
    const ok = await fx().fetch('/rest/v1/tags?select=label&order=label', { headers: { 'Accept-Profile': 'public' } });
    expect(await ok.json()).toEqual([{ label: 'award' }, { label: 'classic' }, { label: 'short' }]);
    const other = await fx().service.schema('auth').from('users').select('id');
    expect(other.status).toBe(406);
    expect(other.error?.code).toBe('PGRST106');
  });
});
