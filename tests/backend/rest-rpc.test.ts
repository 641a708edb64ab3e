// /rest/v1/rpc/<fn> through supabase-js: scalar, row and set results, named
// arguments and defaults, GET calls, filters on set results, errors.
import { expect, it } from 'vitest';
import { describeOnEachDatabase, uniqueName } from './harness.ts';

describeOnEachDatabase('REST rpc', (fx) => {
  it('returns a scalar, with named arguments and defaults', async () => {
    expect((await fx().anon.rpc('add_numbers', { a: 1, b: 2 })).data).toBe(3);
    expect((await fx().anon.rpc('add_numbers', { a: 1 })).data).toBe(11);
  });

  it('calls with GET and query-string arguments, arrays included', async () => {
    expect((await fx().anon.rpc('add_numbers', { a: 5, b: 5 }, { get: true })).data).toBe(10);
    expect((await fx().anon.rpc('sum_all', { nums: [1, 2, 3] }, { get: true })).data).toBe(6);
    expect((await fx().anon.rpc('sum_all', { nums: [4, 5] })).data).toBe(9);
  });

  it('returns a set of rows that can be selected, filtered, ordered, paged and counted', async () => {
    const { data, error } = await fx()
      .anon.rpc('books_by_author', { author_name: 'Ursula K. Le Guin' })
      .select('title, pages')
      .gt('pages', 200)
      .order('pages', { ascending: false });
    expect(error).toBeNull();
    expect(data).toEqual([{ title: 'The Dispossessed', pages: 387 }, { title: 'The Left Hand of Darkness', pages: 286 }]);
    const paged = await fx().anon.rpc('books_by_author', { author_name: 'Ursula K. Le Guin' }, { count: 'exact' }).select('id').order('id').range(1, 1);
    expect(paged.data).toEqual([{ id: 2 }]);
    expect(paged.count).toBe(3);
  });

  it('embeds from the rows a set-returning function returns', async () => {
    const { data } = await fx().anon.rpc('books_by_author', { author_name: 'Stanisław Lem' }).select('title, author:authors!author_id(name)').eq('id', 4).single();
    expect(data).toEqual({ title: 'Solaris', author: { name: 'Stanisław Lem' } });
  });

  it('returns table(...) columns and filters on them', async () => {
    const { data } = await fx().anon.rpc('author_stats').select('author, book_count').gte('book_count', 2).order('author');
    expect(data).toEqual([
      { author: 'Octavia E. Butler', book_count: 2 },
      { author: 'Stanisław Lem', book_count: 2 },
      { author: 'Ursula K. Le Guin', book_count: 3 },
    ]);
  });

  it('returns a single composite as an object', async () => {
    const { data } = await fx().anon.rpc('first_author');
    expect(data).toMatchObject({ id: 1, name: 'Ursula K. Le Guin' });
  });

  it('returns a set of scalars as an array', async () => {
    const { data } = await fx().anon.rpc('tag_labels');
    expect(data).toEqual(['award', 'classic', 'short']);
  });

  it('passes the whole body to a function with one unnamed jsonb parameter', async () => {
    const { data } = await fx().anon.rpc('echo_json', { any: ['thing', 1] });
    expect(data).toEqual({ any: ['thing', 1] });
  });

  it('sees the caller through auth.uid(), auth.role() and request settings', async () => {
    const sub = '11111111-2222-3333-4444-555555555555';
    const asUser = await fx().asUser(sub);
    expect((await asUser.rpc('whoami')).data).toEqual({ uid: sub, role: 'authenticated', method: 'POST' });
    expect((await fx().anon.rpc('whoami', {}, { get: true })).data).toEqual({ uid: null, role: 'anon', method: 'GET' });
  });

  it('answers 204 for a void function', async () => {
    const result = await fx().anon.rpc('noop');
    expect(result.error).toBeNull();
    expect(result.status).toBe(204);
    expect(result.data).toBeNull();
  });

  it('runs volatile functions by POST and commits their writes', async () => {
    const counter = uniqueName('bump');
    expect((await fx().service.rpc('bump', { counter })).data).toBe(1);
    expect((await fx().service.rpc('bump', { counter })).data).toBe(2);
  });

  it('calls a set-returning function once for its rows and their count', async () => {
    const counter = uniqueName('counted');
    const counted = await fx().service.rpc('bump_rows', { counter }, { count: 'exact' }).select('name, value');
    expect(counted.error).toBeNull();
    expect(counted.count).toBe(1);
    expect(counted.data).toEqual([{ name: counter, value: 1 }]);
    const { data } = await fx().service.from('counters').select('value').eq('name', counter).single();
    expect(data).toEqual({ value: 1 });
  });

  it('refuses a volatile function by GET (read-only transaction, 405)', async () => {
    const { error, status } = await fx().service.rpc('bump', { counter: uniqueName('get') }, { get: true });
    expect(status).toBe(405);
    expect(error?.code).toBe('25006');
  });

  it('turns raise exception into 400 P0001 with message and hint', async () => {
    const { error, status } = await fx().anon.rpc('fail_with', { message: 'nope, not today' });
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: 'P0001', message: 'nope, not today', hint: 'raised on purpose' });
  });

  it('answers 404 PGRST202 for an unknown function or unknown arguments', async () => {
    const unknown = await fx().anon.rpc('does_not_exist');
    expect(unknown.status).toBe(404);
    expect(unknown.error?.code).toBe('PGRST202');
    const wrongArgs = await fx().anon.rpc('add_numbers', { x: 1 });
    expect(wrongArgs.status).toBe(404);
    expect(wrongArgs.error?.message).toBe('Could not find the function public.add_numbers(x) in the schema cache');
  });
});
