// Errors in PostgREST's shape, and hostile input: odd identifiers, injection
// attempts in values, broken JSON, huge bodies, bad tokens. Afterwards the
// server still answers normally.
import { expect, it } from 'vitest';
import { describeOnEachDatabase, uniqueName } from './harness.ts';

describeOnEachDatabase('REST errors and hostile input', (fx) => {
  const raw = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${fx().backend.serviceRoleKey}`);
    return fx().fetch(path, { ...init, headers });
  };

  it('answers 404 PGRST205 for an unknown table', async () => {
    const { error, status } = await fx().service.from('no_such_table').select();
    expect(status).toBe(404);
    expect(error).toEqual({ code: 'PGRST205', message: "Could not find the table 'public.no_such_table' in the schema cache", details: null, hint: null });
  });

  it('answers 400 42703 for an unknown column in select, filter or order', async () => {
    for (const result of [
      await fx().service.from('books').select('nope'),
      await fx().service.from('books').select('id').eq('nope', 1),
      await fx().service.from('books').select('id').order('nope'),
    ]) {
      expect(result.status).toBe(400);
      expect(result.error?.code).toBe('42703');
      expect(result.error?.message).toBe('column books.nope does not exist');
    }
  });

  it('answers 400 PGRST200 for an unknown embed and 300 PGRST201 for an ambiguous one', async () => {
    const unknown = await fx().service.from('books').select('id, nothing(*)');
    expect(unknown.status).toBe(400);
    expect(unknown.error?.code).toBe('PGRST200');
    const ambiguous = await fx().service.from('books').select('id, authors(name)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error?.code).toBe('PGRST201');
  });

  it('treats identifiers with SQL in them as names: parse error or unknown column', async () => {
    const semicolon = await raw('/rest/v1/books?select=id;drop table books');
    expect(semicolon.status).toBe(400);
    expect((await semicolon.json()).code).toBe('PGRST100');
    const quotedSql = await raw(`/rest/v1/books?select=${encodeURIComponent('"id;drop table books"')}`);
    expect(quotedSql.status).toBe(400);
    expect((await quotedSql.json()).code).toBe('42703');
    const quoteInName = await raw(`/rest/v1/books?select=${encodeURIComponent('"a""b"')}`);
    expect(quoteInName.status).toBe(400);
    const filterName = await raw(`/rest/v1/books?${encodeURIComponent('id;drop table books')}=eq.1`);
    expect(filterName.status).toBe(400);
    const orderInjection = await raw(`/rest/v1/books?order=${encodeURIComponent('id;drop table books')}`);
    expect(orderInjection.status).toBe(400);
    const table = await raw(`/rest/v1/${encodeURIComponent('books;drop table books')}`);
    expect(table.status).toBe(404);
    const fn = await raw(`/rest/v1/rpc/${encodeURIComponent('add_numbers(1,2);drop table books;--')}`, { method: 'POST', body: '{}' });
    expect(fn.status).toBe(404);
  });

  it('rejects unknown operators and malformed filters with PGRST100', async () => {
    for (const query of ['id=foo.1', 'id=eq', 'id=in.1,2', 'or=(id.eq.1', 'or=id.eq.1', 'id=is.maybe', 'limit=ten', 'order=id.sideways']) {
      const response = await raw(`/rest/v1/books?${query}`);
      expect(response.status, query).toBe(400);
      expect((await response.json()).code, query).toBe('PGRST100');
    }
  });

  it('binds values: quotes and SQL in values are only data', async () => {
    const name = `'; drop table counters; --"${uniqueName('q')}`;
    const inserted = await fx().service.from('counters').insert({ name, note: "O'Brien \\ \"quoted\"" }).select().single();
    expect(inserted.error).toBeNull();
    const { data } = await fx().service.from('counters').select('name, note').eq('name', name).single();
    expect(data).toEqual({ name, note: "O'Brien \\ \"quoted\"" });
    const none = await fx().service.from('books').select('id').eq('title', "x' or '1'='1");
    expect(none.data).toEqual([]);
    const inList = await fx().service.from('books').select('id').in('title', ["') or true --", 'Solaris']);
    expect(inList.data).toEqual([{ id: 4 }]);
    const like = await fx().service.from('books').select('id').like('title', "%'%");
    expect(like.data).toEqual([]);
  });

  it('answers 400 PGRST102 for invalid or wrongly shaped JSON bodies', async () => {
    for (const body of ['{"name": ', 'not json', '"a string"', '[1, 2]', '']) {
      const response = await raw('/rest/v1/counters', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      expect(response.status, body).toBe(400);
      expect((await response.json()).code, body).toBe('PGRST102');
    }
    const mismatched = await raw('/rest/v1/counters', { method: 'POST', body: JSON.stringify([{ name: 'a' }, { value: 1 }]) });
    expect((await mismatched.json()).message).toBe('All object keys must match');
  });

  it('handles deeply nested and large (but allowed) JSON bodies', async () => {
    let nested: unknown = 'leaf';
    for (let i = 0; i < 500; i++) nested = { n: nested };
    const title = uniqueName('deep');
    const deep = await fx().service.from('books').insert({ author_id: 1, title, metadata: nested });
    expect(deep.status).toBe(201);
    const big = await fx().service.from('counters').insert({ name: uniqueName('big'), note: 'x'.repeat(900_000) });
    expect(big.status).toBe(201);
  });

  it('answers 413 to a body over 1 MB', async () => {
    const response = await raw('/rest/v1/counters', { method: 'POST', body: JSON.stringify({ name: 'huge', note: 'x'.repeat(1_100_000) }) });
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe('PGRST413');
    const viaClient = await fx().service.from('counters').insert({ name: 'huge', note: 'y'.repeat(2_000_000) });
    expect(viaClient.status).toBe(413);
  });

  it('answers 401 for a missing key, a malformed JWT and a JWT signed with another secret', async () => {
    const missing = await fetch(`${fx().backend.url}/rest/v1/books`);
    expect(missing.status).toBe(401);
    const malformed = await raw('/rest/v1/books', { headers: { Authorization: 'Bearer not-a-jwt', apikey: 'not-a-jwt' } });
    expect(malformed.status).toBe(401);
    expect((await malformed.json()).code).toBe('PGRST301');
    const forged = await fx().token({ role: 'service_role' });
    const otherSecret = forged.split('.').slice(0, 2).join('.') + '.' + Buffer.from('forged-signature').toString('base64url');
    const wrongSecret = await raw('/rest/v1/books', { headers: { Authorization: `Bearer ${otherSecret}` } });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.headers.get('www-authenticate')).toContain('invalid_token');
    const badApikey = await fetch(`${fx().backend.url}/rest/v1/books`, { headers: { apikey: 'garbage' } });
    expect(badApikey.status).toBe(401);
  });

  it('answers 405 for methods PostgREST does not take on a table', async () => {
    const put = await raw('/rest/v1/counters?name=eq.x', { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
  });

  it('still answers a normal query after all of that', async () => {
    const { data, error } = await fx().anon.from('books').select('title').eq('id', 4).single();
    expect(error).toBeNull();
    expect(data).toEqual({ title: 'Solaris' });
    const tables = await fx().service.from('books').select('id', { count: 'exact', head: true });
    expect(tables.count).toBeGreaterThanOrEqual(7);
  });
});
