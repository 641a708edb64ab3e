// 'My tasks' in the dashboard's one call (decision 080): dashboard_overview's
// key my_tasks holds the signed-in person's open tasks, newest first, ten at
// most; a task done, one assigned to a colleague and one of another account
// are not there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;
let member: Member;
let other: Member;

beforeAll(async () => {
  backend = await startBackend({ on: 'pglite' });
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'tasks-admin');
  member = await addMember(backend, admin, 'member', 'tasks-member');
  other = await signUpFreshAdmin(backend, 'tasks-other');
}, 120_000);
afterAll(async () => backend?.stop());

const myTasks = async (who: Member) => {
  const { data, error } = await who.client.rpc('dashboard_overview');
  expect(error).toBeNull();
  return (data as { my_tasks: { id: string; title: string; created_at: string }[] }).my_tasks;
};

describe("dashboard_overview's my_tasks", () => {
  it("holds the caller's own open tasks, newest first, ten at most; none done, of a colleague or of another account", async () => {
    expect(await myTasks(member)).toEqual([]);
    const at = (minutes: number) => new Date(Date.UTC(2030, 0, 1, 9, minutes)).toISOString();
    const rows = [
      ...Array.from({ length: 12 }, (_, i) => ({ account_id: admin.accountId, assignee_id: member.userId, title: `Call ${i}`, done: false, created_at: at(i) })),
      { account_id: admin.accountId, assignee_id: member.userId, title: 'Already done', done: true, created_at: at(30) },
      { account_id: admin.accountId, assignee_id: admin.userId, title: "The admin's", done: false, created_at: at(31) },
      { account_id: other.accountId, assignee_id: other.userId, title: "Another account's", done: false, created_at: at(32) },
    ];
    expect((await service.from('tasks').insert(rows)).error).toBeNull();
    const mine = await myTasks(member);
    expect(mine.map((t) => t.title)).toEqual(['Call 11', 'Call 10', 'Call 9', 'Call 8', 'Call 7', 'Call 6', 'Call 5', 'Call 4', 'Call 3', 'Call 2']);
    expect(Object.keys(mine[0]).sort()).toEqual(['created_at', 'id', 'title']);
    expect((await myTasks(admin)).map((t) => t.title)).toEqual(["The admin's"]);
    expect((await myTasks(other)).map((t) => t.title)).toEqual(["Another account's"]);
  });
});
