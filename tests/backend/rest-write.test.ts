// Writing through /rest/v1 with supabase-js: insert, upsert, update, delete,
// the Prefer variants, and the status codes of constraint violations.
import { expect, it } from 'vitest';
import { describeOnEachDatabase, uniqueName } from './harness.ts';

describeOnEachDatabase('REST writes', (fx) => {
  const counters = () => fx().service.from('counters');

  it('inserts one row and returns it with defaults filled in (201)', async () => {
    const name = uniqueName('one');
    const { data, error, status } = await counters().insert({ name, value: 3 }).select().single();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual({ name, value: 3, note: 'from default' });
  });

  it('inserts many rows; missing keys become null unless defaultToNull is false', async () => {
    const [a, b] = [uniqueName('many'), uniqueName('many')];
    const nulls = await counters().insert([{ name: a, note: 'given' }, { name: b }]).select('name, note').order('name');
    expect(nulls.error).toBeNull();
    expect(nulls.data).toEqual([{ name: a, note: 'given' }, { name: b, note: null }].sort((x, y) => (x.name < y.name ? -1 : 1)));

    const [c, d] = [uniqueName('defaults'), uniqueName('defaults')];
    const defaults = await counters().insert([{ name: c, note: 'given' }, { name: d }], { defaultToNull: false }).select('name, note');
    expect(defaults.data).toContainEqual({ name: d, note: 'from default' });
    expect(defaults.data).toContainEqual({ name: c, note: 'given' });
  });

  it('inserts typed values: arrays, jsonb, numerics, with embeds in the representation', async () => {
    const title = uniqueName('book');
    const { data, error } = await fx()
      .service.from('books')
      .insert({ author_id: 3, title, pages: 100, price: 5.5, genres: ['a', 'b'], metadata: { nested: { ok: true } } })
      .select('title, price, genres, metadata, author:authors!author_id(name)')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ title, price: 5.5, genres: ['a', 'b'], metadata: { nested: { ok: true } }, author: { name: 'Octavia E. Butler' } });
  });

  it('returns nothing with return=minimal (the default) but still inserts', async () => {
    const name = uniqueName('minimal');
    const inserted = await counters().insert({ name });
    expect(inserted.status).toBe(201);
    expect(inserted.data).toBeNull();
    const { data } = await counters().select('name').eq('name', name);
    expect(data).toEqual([{ name }]);
  });

  it('counts inserted rows with count=exact', async () => {
    const rows = [{ name: uniqueName('c') }, { name: uniqueName('c') }, { name: uniqueName('c') }];
    const { count, error } = await counters().insert(rows, { count: 'exact' });
    expect(error).toBeNull();
    expect(count).toBe(3);
  });

  it('upserts with merge-duplicates (update) and ignore-duplicates (keep)', async () => {
    const name = uniqueName('upsert');
    await counters().insert({ name, value: 1 });
    const merged = await counters().upsert({ name, value: 2 }).select('name, value');
    expect(merged.data).toEqual([{ name, value: 2 }]);
    const ignored = await counters().upsert({ name, value: 99 }, { ignoreDuplicates: true }).select('name, value');
    expect(ignored.data).toEqual([]);
    const { data } = await counters().select('value').eq('name', name).single();
    expect(data).toEqual({ value: 2 });
  });

  it('upserts on a unique column named by onConflict', async () => {
    const label = uniqueName('tag');
    const first = await fx().service.from('tags').upsert({ label }, { onConflict: 'label' }).select('id, label').single();
    const again = await fx().service.from('tags').upsert({ label }, { onConflict: 'label' }).select('id, label').single();
    expect(again.data).toEqual(first.data);
  });

  it('updates matching rows only, returning them when asked', async () => {
    const [a, b] = [uniqueName('upd'), uniqueName('upd')];
    await counters().insert([{ name: a }, { name: b }]);
    const updated = await counters().update({ value: 7, note: null }).eq('name', a).select();
    expect(updated.status).toBe(200);
    expect(updated.data).toEqual([{ name: a, value: 7, note: null }]);
    const minimal = await counters().update({ value: 8 }).eq('name', b);
    expect(minimal.status).toBe(204);
    const { data } = await counters().select('name, value').in('name', [a, b]).order('value');
    expect(data).toEqual([{ name: a, value: 7 }, { name: b, value: 8 }]);
  });

  it('updates with count=exact and reports how many rows changed', async () => {
    const prefix = uniqueName('bulk');
    await counters().insert([{ name: `${prefix}-1` }, { name: `${prefix}-2` }]);
    const { count } = await counters().update({ value: 1 }, { count: 'exact' }).like('name', `${prefix}%`);
    expect(count).toBe(2);
  });

  it('deletes matching rows, returning them when asked', async () => {
    const [a, b] = [uniqueName('del'), uniqueName('del')];
    await counters().insert([{ name: a }, { name: b }]);
    const deleted = await counters().delete().eq('name', a).select('name');
    expect(deleted.data).toEqual([{ name: a }]);
    const minimal = await counters().delete().eq('name', b);
    expect(minimal.status).toBe(204);
    const { data } = await counters().select('name').in('name', [a, b]);
    expect(data).toEqual([]);
  });

  it('refuses update and delete without any filter, like Supabase (safeupdate)', async () => {
    const update = await counters().update({ value: 0 });
    expect(update.status).toBe(400);
    expect(update.error?.message).toBe('UPDATE requires a WHERE clause');
    const raw = await fx().fetch('/rest/v1/counters', {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${fx().backend.serviceRoleKey}` },
    });
    expect(raw.status).toBe(400);
    expect((await raw.json()).message).toBe('DELETE requires a WHERE clause');
  });

  it('single() on a write that touches several rows is refused and rolled back', async () => {
    const prefix = uniqueName('single');
    await counters().insert([{ name: `${prefix}-1` }, { name: `${prefix}-2` }]);
    const result = await counters().update({ value: 42 }).like('name', `${prefix}%`).select().single();
    expect(result.status).toBe(406);
    const { data } = await counters().select('value').like('name', `${prefix}%`);
    expect(data).toEqual([{ value: 0 }, { value: 0 }]);
  });

  it('rolls back on Prefer: tx=rollback but answers as if committed', async () => {
    const name = uniqueName('rollback');
    const result = await counters().insert({ name }).select().rollback();
    expect(result.data).toEqual([{ name, value: 0, note: 'from default' }]);
    const { data } = await counters().select('name').eq('name', name);
    expect(data).toEqual([]);
  });

  it('answers 409 with 23505 for a duplicate key', async () => {
    const name = uniqueName('dup');
    await counters().insert({ name });
    const { error, status } = await counters().insert({ name });
    expect(status).toBe(409);
    expect(error?.code).toBe('23505');
    expect(error?.message).toContain('duplicate key value violates unique constraint');
    expect(error?.details).toContain(name);
  });

  it('answers 409 with 23503 for a missing foreign key', async () => {
    const { error, status } = await fx().service.from('books').insert({ author_id: 999999, title: 'orphan' });
    expect(status).toBe(409);
    expect(error?.code).toBe('23503');
  });

  it('answers 400 with 23502 for a missing required value and 23514 for a failed check', async () => {
    const missing = await fx().service.from('books').insert({ author_id: 1, title: null });
    expect(missing.status).toBe(400);
    expect(missing.error?.code).toBe('23502');
    const check = await fx().service.from('books').insert({ author_id: 1, title: 'x', pages: -1 });
    expect(check.status).toBe(400);
    expect(check.error?.code).toBe('23514');
  });

  it('answers 400 with 22P02 for a value of the wrong type', async () => {
    const { error, status } = await fx().service.from('books').select('id').eq('pages', 'many');
    expect(status).toBe(400);
    expect(error?.code).toBe('22P02');
  });

  it('rejects unknown payload columns with PGRST204', async () => {
    const { error, status } = await counters().insert({ name: uniqueName('x'), nope: 1 });
    expect(status).toBe(400);
    expect(error?.code).toBe('PGRST204');
    expect(error?.message).toBe("Could not find the 'nope' column of 'counters' in the schema cache");
  });

  it('inserts with an explicit columns parameter, ignoring other keys', async () => {
    const name = uniqueName('cols');
    const response = await fx().fetch('/rest/v1/counters?columns=name,value&select=name,value,note', {
      method: 'POST',
      headers: { Authorization: `Bearer ${fx().backend.serviceRoleKey}`, 'Content-Type': 'application/json', Prefer: 'return=representation' },
      body: JSON.stringify([{ name, value: 4, note: 'ignored' }]),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual([{ name, value: 4, note: 'from default' }]);
  });

  it('inserts an empty array as a no-op', async () => {
    const { data, error, status } = await counters().insert([]).select();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual([]);
  });
});
