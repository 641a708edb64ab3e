// Row-level security decides, as under PostgREST: each request runs as the
// role in its JWT with its claims set, so auth.uid() policies apply.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeOnEachDatabase } from './harness.ts';

describeOnEachDatabase('REST under row-level security', (fx) => {
  const alice = randomUUID();
  const bob = randomUUID();

  it('a user sees only their own rows', async () => {
    const asAlice = await fx().asUser(alice);
    const asBob = await fx().asUser(bob);
    expect((await asAlice.from('notes').insert({ body: 'alice 1' })).error).toBeNull();
    expect((await asBob.from('notes').insert({ body: 'bob 1' })).error).toBeNull();
    const seen = await asAlice.from('notes').select('body, owner_id');
    expect(seen.data).toEqual([{ body: 'alice 1', owner_id: alice }]);
  });

  it('a user cannot insert a row for someone else (403, 42501)', async () => {
    const asAlice = await fx().asUser(alice);
    const { error, status } = await asAlice.from('notes').insert({ body: 'forged', owner_id: bob });
    expect(status).toBe(403);
    expect(error?.code).toBe('42501');
    expect(error?.message).toContain('row-level security');
  });

  it("a user's update and delete do not touch others' rows", async () => {
    const asAlice = await fx().asUser(alice);
    const asBob = await fx().asUser(bob);
    await asBob.from('notes').insert({ body: 'bob keeps this' });
    const updated = await asAlice.from('notes').update({ body: 'hijacked' }).eq('body', 'bob keeps this').select();
    expect(updated.data).toEqual([]);
    const deleted = await asAlice.from('notes').delete().eq('body', 'bob keeps this').select();
    expect(deleted.data).toEqual([]);
    expect((await asBob.from('notes').select('body').eq('body', 'bob keeps this')).data).toHaveLength(1);
  });

  it('the anonymous role sees nothing and cannot write (401 for anon)', async () => {
    expect((await fx().anon.from('notes').select('*')).data).toEqual([]);
    const { status, error } = await fx().anon.from('notes').insert({ body: 'anon', owner_id: alice });
    expect(status).toBe(401);
    expect(error?.code).toBe('42501');
  });

  it('the service role bypasses row-level security', async () => {
    const { data } = await fx().service.from('notes').select('owner_id');
    const owners = new Set(data!.map((n) => n.owner_id));
    expect(owners.has(alice) && owners.has(bob)).toBe(true);
  });

  it('an insert-only policy accepts return=minimal but not reading the row back', async () => {
    expect((await fx().anon.from('feedback').insert({ message: 'hi' })).status).toBe(201);
    const withSelect = await fx().anon.from('feedback').insert({ message: 'hi again' }).select();
    expect(withSelect.status).toBe(401);
    expect((await fx().service.from('feedback').select('message', { count: 'exact', head: true })).count).toBe(1);
  });

  it('an expired token is refused with 401 PGRST303', async () => {
    const expired = await fx().token({ sub: alice, role: 'authenticated' }, -10);
    const response = await fx().fetch('/rest/v1/notes?select=*', { headers: { Authorization: `Bearer ${expired}` } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'PGRST303', message: 'JWT expired' });
  });

  it('a token with a role other than the API roles is refused', async () => {
    const postgres = await fx().token({ role: 'postgres' });
    const response = await fx().fetch('/rest/v1/notes?select=*', { headers: { Authorization: `Bearer ${postgres}` } });
    expect(response.status).toBe(401);
  });
});
