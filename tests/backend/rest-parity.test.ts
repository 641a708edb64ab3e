// Where the local REST layer once answered differently from PostgREST v12
// (issue 21): each behaviour as PostgREST's own code and specs have it,
// driven through supabase-js where it can send the request.
import { expect, it } from 'vitest';
import { describeOnEachDatabase, uniqueName } from './harness.ts';

describeOnEachDatabase('REST parity with PostgREST', (fx) => {
  // 1. Ranges: [1,5) [5,10) [10,20) [3,12) against [5,10).
  it('filters ranges with sl/sr/nxl/nxr/adj the way PostgREST does', async () => {
    const ids = async (query: PromiseLike<{ data: { id: number }[] | null }>) => (await query).data?.map((r) => r.id);
    const slots = () => fx().anon.from('slots').select('id').order('id');
    expect(await ids(slots().rangeLt('during', '[5,10)'))).toEqual([1]);
    expect(await ids(slots().rangeGt('during', '[5,10)'))).toEqual([3]);
    // rangeGte is nxl (&>: does not extend to the left of), rangeLte nxr (&<: not to the right of).
    expect(await ids(slots().rangeGte('during', '[5,10)'))).toEqual([2, 3]);
    expect(await ids(slots().rangeLte('during', '[5,10)'))).toEqual([1, 2]);
    expect(await ids(slots().rangeAdjacent('during', '[5,10)'))).toEqual([1, 3]);
    expect(await ids(slots().overlaps('during', '[5,10)'))).toEqual([2, 4]);
  });

  // 2. Unnamed parameters (PostgREST's findProc and callPlan).
  it('calls a function of one unnamed parameter with the raw body, positionally', async () => {
    const text = await fx().fetch('/rest/v1/rpc/shout_text', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'quiet please' });
    expect(text.status).toBe(200);
    expect(await text.json()).toBe('QUIET PLEASE');
    const bytes = await fx().fetch('/rest/v1/rpc/byte_count', {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array([0, 1, 2, 255]),
    });
    expect(await bytes.json()).toBe(4);
    expect((await fx().anon.rpc('echo_json', [1, 'two'])).data).toEqual([1, 'two']);
  });

  it('answers 404 PGRST202 (never invalid SQL) for unnamed parameters that cannot be matched', async () => {
    const { error, status } = await fx().anon.rpc('unnamed_sum', { a: 1, b: 2 });
    expect(status).toBe(404);
    expect(error?.code).toBe('PGRST202');
    expect(error?.message).toBe('Could not find the function public.unnamed_sum(a, b) in the schema cache');
    const json = await fx().fetch('/rest/v1/rpc/shout_text', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '"x"' });
    expect(json.status).toBe(404);
    const plain = await fx().fetch('/rest/v1/rpc/unnamed_sum', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '1' });
    expect(await plain.json()).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.unnamed_sum in the schema cache',
      details: 'Searched for the function public.unnamed_sum with a single unnamed text parameter, but no matches were found in the schema cache.',
    });
  });

  // 3. Prefer: max-affected.
  it('refuses an update or delete touching more rows than max-affected with handling=strict, and writes nothing', async () => {
    const label = uniqueName('many');
    await fx().service.from('counters').insert([{ name: `${label}-1` }, { name: `${label}-2` }, { name: `${label}-3` }]);
    const strict = { Prefer: 'handling=strict, max-affected=2', apikey: fx().backend.serviceRoleKey, Authorization: `Bearer ${fx().backend.serviceRoleKey}` };
    const tooMany = await fx().fetch(`/rest/v1/counters?name=like.${label}*`, { method: 'PATCH', headers: { ...strict, 'Content-Type': 'application/json' }, body: '{"value":7}' });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toEqual({
      code: 'PGRST124',
      message: 'Query result exceeds max-affected preference constraint',
      details: 'The query affects 3 rows',
      hint: null,
    });
    const { data } = await fx().service.from('counters').select('value').like('name', `${label}*`);
    expect(data?.every((r) => r.value === 0)).toBe(true);

    const within = await fx().fetch(`/rest/v1/counters?name=eq.${label}-1`, { method: 'DELETE', headers: strict });
    expect(within.status).toBe(204);
    expect(within.headers.get('preference-applied')).toContain('max-affected=2');
    const lenient = await fx().fetch(`/rest/v1/counters?name=like.${label}*`, { method: 'DELETE', headers: { ...strict, Prefer: 'max-affected=1' } });
    expect(lenient.status).toBe(204); // without handling=strict PostgREST ignores it
  });

  it('applies max-affected to the rows a set-returning function returns, and refuses it for other functions (PGRST128)', async () => {
    const strict = { Prefer: 'handling=strict, max-affected=0', 'Content-Type': 'application/json' };
    const counter = uniqueName('rpc-max');
    const rows = await fx().fetch('/rest/v1/rpc/bump_rows', { method: 'POST', headers: strict, body: JSON.stringify({ counter }) });
    expect(rows.status).toBe(400);
    expect((await rows.json()).code).toBe('PGRST124');
    const { data } = await fx().service.from('counters').select('name').eq('name', counter);
    expect(data).toEqual([]); // rolled back
    const scalar = await fx().fetch('/rest/v1/rpc/add_numbers', { method: 'POST', headers: strict, body: '{"a":1}' });
    expect(await scalar.json()).toMatchObject({
      code: 'PGRST128',
      message: 'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
    });
  });

  // 4. Self-referencing tables.
  it('embeds a self-referencing tree: the table name gives the children, the key column the parent', async () => {
    const { data, error } = await fx().anon.from('nodes').select('name, parent:parent_id(name), children:nodes(name)').eq('id', 2).single();
    expect(error).toBeNull();
    expect(data).toEqual({ name: 'left', parent: { name: 'root' }, children: [{ name: 'leaf' }] });
    const hinted = await fx().anon.from('nodes').select('name, kids:nodes!parent_id(name)').eq('id', 1).single();
    expect(hinted.data).toEqual({ name: 'root', kids: [{ name: 'left' }, { name: 'right' }] });
  });

  it("answers 300 PGRST201 with PostgREST's details objects and hint", async () => {
    const { error, status } = await fx().anon.from('books').select('title, authors(name)');
    expect(status).toBe(300);
    expect(error?.code).toBe('PGRST201');
    expect(error?.details).toEqual([
      {
        cardinality: 'many-to-one',
        embedding: 'books with authors',
        relationship: 'books_author_id_fkey using books(author_id) and authors(id)',
      },
      {
        cardinality: 'many-to-one',
        embedding: 'books with authors',
        relationship: 'books_editor_id_fkey using books(editor_id) and authors(id)',
      },
    ]);
    expect(error?.hint).toBe(
      "Try changing 'authors' to one of the following: 'authors!books_author_id_fkey', 'authors!books_editor_id_fkey'. Find the desired relationship in the 'details' key.",
    );
  });

  // 5. Embedding by constraint name, through views, computed fields and relationships, spreads.
  it('embeds by a foreign key constraint name with an alias', async () => {
    const { data } = await fx().anon.from('books').select('title, editor:books_editor_id_fkey(name)').eq('id', 1).single();
    expect(data).toEqual({ title: 'A Wizard of Earthsea', editor: { name: 'Stanisław Lem' } });
  });

  it('embeds through a view in both directions', async () => {
    const fromView = await fx().anon.from('book_titles').select('title, authors(name)').eq('id', 4).single();
    expect(fromView.error).toBeNull();
    expect(fromView.data).toEqual({ title: 'Solaris', authors: { name: 'Stanisław Lem' } });
    const toView = await fx().anon.from('authors').select('name, book_titles(title)').eq('id', 3).single();
    expect(toView.data).toEqual({ name: 'Octavia E. Butler', book_titles: [{ title: 'Kindred' }, { title: 'Parable of the Sower' }] });
  });

  it('selects, filters and orders by a computed field', async () => {
    const { data, error } = await fx().anon.from('authors').select('id, shouted_name').in('shouted_name', ['OCTAVIA E. BUTLER', 'NOBODY YET']).order('shouted_name');
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 4, shouted_name: 'NOBODY YET' },
      { id: 3, shouted_name: 'OCTAVIA E. BUTLER' },
    ]);
  });

  it('embeds a computed relationship (a function taking the row), to-one and to-many', async () => {
    const { data, error } = await fx().anon.from('authors').select('name, longest_book(title), short_books(title)').eq('id', 1).single();
    expect(error).toBeNull();
    expect(data).toEqual({ name: 'Ursula K. Le Guin', longest_book: { title: 'The Dispossessed' }, short_books: [{ title: 'A Wizard of Earthsea' }] });
  });

  it('spreads a to-one embed into its parent, and refuses a to-many spread with PGRST119', async () => {
    const { data, error } = await fx().anon.from('books').select('title, ...authors!author_id(author:name, country)').eq('id', 6).single();
    expect(error).toBeNull();
    expect(data).toEqual({ title: 'Kindred', author: 'Octavia E. Butler', country: 'US' });
    const many = await fx().anon.from('authors').select('name, ...books!author_id(title)');
    expect(many.error?.code).toBe('PGRST119');
  });

  // 6. Overloads.
  it('chooses among overloaded functions by argument names, PGRST203 only when truly ambiguous', async () => {
    expect((await fx().anon.rpc('greet', { name: 'Ada' })).data).toBe('Hello, Ada');
    expect((await fx().anon.rpc('greet', { first_name: 'Ada', last_name: 'Lovelace' })).data).toBe('Hello, Ada Lovelace');
    expect((await fx().anon.rpc('greet', { name: 'Ada' }, { get: true })).data).toBe('Hello, Ada');
    const { error, status } = await fx().anon.rpc('twice', { x: 2 });
    expect(status).toBe(300);
    expect(error?.code).toBe('PGRST203');
  });

  // 7. Upsert status and sequence values.
  it('answers an upsert 201 when it inserts and 200 when it only updates', async () => {
    const name = uniqueName('upsert');
    const first = await fx().service.from('counters').upsert({ name, value: 1 }).select();
    expect(first.status).toBe(201);
    const again = await fx().service.from('counters').upsert({ name, value: 2 }).select();
    expect(again.status).toBe(200);
    expect(again.data).toEqual([{ name, value: 2, note: 'from default' }]);
    const minimal = await fx().service.from('counters').upsert({ name, value: 3 });
    expect(minimal.status).toBe(200);
    const ignored = await fx().service.from('counters').upsert({ name, value: 4 }, { ignoreDuplicates: true });
    expect(ignored.status).toBe(201);
  });

  it('takes one sequence value per row of a bulk insert with defaults', async () => {
    const label = uniqueName('bulk');
    const { data } = await fx()
      .service.from('tags')
      .insert([{ label: `${label}-a` }, { label: `${label}-b` }, { label: `${label}-c` }], { defaultToNull: false })
      .select('id');
    const ids = data!.map((r) => r.id as number);
    expect(new Set(ids).size).toBe(3);
    expect(ids[1] - ids[0]).toBe(1);
    expect(ids[2] - ids[1]).toBe(1);
  });

  // 8. Counts, PGRST116, aggregates.
  it('counts planned and estimated as PostgREST: the planner estimate, 206 when the page is smaller', async () => {
    const planned = await fx().fetch('/rest/v1/books?select=id&limit=2', { headers: { Prefer: 'count=planned' } });
    const range = planned.headers.get('content-range')!;
    expect(range).toMatch(/^0-1\/\d+$/);
    const estimate = Number(range.split('/')[1]);
    expect(planned.status).toBe(estimate > 2 ? 206 : 200);
    const call = await fx().anon.rpc('books_by_author', { author_name: 'Ursula K. Le Guin' }, { count: 'planned' }).select('id');
    expect(call.data).toHaveLength(3);
    expect(call.count).toBeGreaterThan(0);
    expect(call.status).toBe(call.count! > 3 ? 206 : 200);
    const estimated = await fx().anon.from('books').select('id', { count: 'estimated' }).limit(2);
    expect(estimated.count).toBe(7); // under max-rows the estimate is the exact count
    expect(estimated.status).toBe(206);
  });

  it('answers what it does not support with the errors the README lists', async () => {
    const csv = await fx().fetch('/rest/v1/books?select=id', { headers: { Accept: 'text/csv' } });
    expect(csv.status).toBe(406);
    expect(await csv.json()).toMatchObject({ code: 'PGRST107', message: 'None of these media types are available: text/csv' });
    const explain = await fx().anon.from('books').select('id').explain();
    expect(explain.error?.code).toBe('PGRST107');
    const geo = await fx().fetch('/rest/v1/books?select=id', { headers: { Accept: 'application/geo+json' } });
    expect(geo.status).toBe(406);
    const put = await fx().fetch('/rest/v1/counters?name=eq.x', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{"name":"x"}' });
    expect(put.status).toBe(405);
    expect((await put.json()).code).toBe('PGRST117');
  });

  it('words PGRST116 as PostgREST v12', async () => {
    const { error } = await fx().anon.from('books').select('id').single();
    expect(error).toMatchObject({ code: 'PGRST116', message: 'Cannot coerce the result to a single JSON object', details: 'The result contains 7 rows' });
  });

  it('refuses aggregates with PGRST123 unless enabled, then sums, counts and groups', async () => {
    const off = await fx().anon.from('books').select('pages.sum()');
    expect(off.status).toBe(400);
    expect(off.error).toMatchObject({ code: 'PGRST123', message: 'Use of aggregate functions is not allowed' });

    const db = fx().backend.db;
    const database = (await db.query<{ name: string }>('select current_database() as name')).rows[0].name;
    await db.query(`alter role authenticator in database "${database}" set pgrst.db_aggregates_enabled = 'true'`);
    fx().backend.reloadSchema();
    try {
      const total = await fx().anon.from('books').select('pages.sum(), count()').single();
      expect(total.data).toEqual({ sum: 1964, count: 7 });
      const grouped = await fx().anon.from('books').select('author_id, pages.max(), id.count()').order('author_id');
      expect(grouped.data).toEqual([
        { author_id: 1, max: 387, count: 3 },
        { author_id: 2, max: 295, count: 2 },
        { author_id: 3, max: 345, count: 2 },
      ]);
    } finally {
      await db.query(`alter role authenticator in database "${database}" reset pgrst.db_aggregates_enabled`);
      fx().backend.reloadSchema();
    }
  });
});

describeOnEachDatabase(
  'REST exposed schemas',
  (fx) => {
    it('serves a schema listed in [api] schemas through Accept-Profile and Content-Profile', async () => {
      const read = await fx().anon.schema('inventory').from('items').select('name').order('id');
      expect(read.error).toBeNull();
      expect(read.data).toEqual([{ name: 'bolt' }, { name: 'nut' }]);
      const write = await fx().service.schema('inventory').from('items').insert({ id: 3, name: 'washer' }).select().single();
      expect(write.status).toBe(201);
      expect(write.data).toEqual({ id: 3, name: 'washer' });
      const raw = await fx().fetch('/rest/v1/items?select=id', { headers: { 'Accept-Profile': 'inventory' } });
      expect(raw.headers.get('content-profile')).toBe('inventory');
      const publicByDefault = await fx().anon.from('authors').select('id').eq('id', 1);
      expect(publicByDefault.data).toEqual([{ id: 1 }]);
    });

    it('answers 406 PGRST106 for a schema not exposed, naming the exposed ones', async () => {
      const { error, status } = await fx().anon.schema('auth').from('users').select('id');
      expect(status).toBe(406);
      expect(error).toMatchObject({ code: 'PGRST106', message: 'Invalid schema: auth', hint: 'Only the following schemas are exposed: public, inventory' });
    });
  },
  { exposedSchemas: ['public', 'inventory'] },
);
