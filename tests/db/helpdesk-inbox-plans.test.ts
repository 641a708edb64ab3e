// The inbox's reads at scale (issue 35, decision 090): each page of /messages is
// read from an index in the order it is listed, as the account's admin with
// row-level security on, so a large account's page costs what a small one's
// does. bench/backend/helpdesk-sla.ts measures them at 100,000 conversations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, anonClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;
let other: Member;
const ROWS = 5_000;

/** `sql` as `member` with row-level security on, in one transaction, like a REST request. */
async function asMember(member: Member, sql: string) {
  const results = await backend.db.batch([
    { sql: `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, params: [JSON.stringify({ sub: member.authUserId, role: 'authenticated' })] },
    { sql },
  ]);
  return results.at(-1)?.rows ?? [];
}

/** The plan of the inbox's read as the REST server runs it (loadInbox's call, ordered and paged). */
async function plan(member: Member, sql: string): Promise<string> {
  const rows = await asMember(member, `explain (analyze, costs off, timing off, summary off) ${sql}`);
  return rows.map((r) => String(Object.values(r)[0])).join('\n');
}

async function ids(member: Member, sql: string): Promise<string[]> {
  return (await asMember(member, sql)).map((r) => String(r.id));
}

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'inbox-plans');
  other = await signUpFreshAdmin(backend, 'inbox-plans-other');
  // Written as the owner in a few statements without the per-row triggers: the plans depend on the indexes
  // and the table's statistics, not on how the deadlines were computed. Many conversations share a deadline,
  // as business hours make them (everything that arrived overnight is due at the same minute).
  await backend.db.exec(`
    set session_replication_role = replica;
    insert into public.contacts (account_id, name, email)
    select '${admin.accountId}', 'Customer ' || g, 'customer-' || g || '@example.test' from generate_series(1, ${ROWS / 10}) g;
    insert into public.conversations (account_id, contact_id, subject, status, sla_due_at, assignee_id, tags, created_at, last_message_at)
    select '${admin.accountId}', c.id, 'Case ' || g, 'open', date_trunc('day', now()) - (g / 200) * interval '1 day' + interval '9 hours',
           case when g % 4 = 0 then '${admin.userId}'::uuid end, case when g % 1000 = 0 then '{legal,vip}'::text[] when g % 10 = 0 then '{vip}'::text[] else '{}' end,
           now() - g * interval '2 minutes', now() - g * interval '2 minutes'
      from generate_series(1, ${ROWS}) g
      join (select id, row_number() over (order by email) as n from public.contacts where account_id = '${admin.accountId}') c on c.n = 1 + g % ${ROWS / 10};
    insert into public.conversation_tags (account_id, conversation_id, tag, last_message_at)
    select c.account_id, c.id, t, c.last_message_at from public.conversations c cross join lateral unnest(c.tags) t
     where c.account_id = '${admin.accountId}';
    set session_replication_role = origin;
    analyze public.conversations;
    analyze public.conversation_tags;
    analyze public.contacts;`);
}, 300_000);

afterAll(async () => {
  await backend?.stop();
});

const page = (from: string, where: string, order: string) =>
  `select v.id from ${from} v where v.merged_into_id is null ${where} order by ${order} limit 21`;

describe('the inbox at scale', () => {
  it("'Breached' is the deadline index's first entries, ties included, with no sort", async () => {
    const sql = page('public.inbox_conversations(null, false)', 'and v.sla_due_at <= now()', 'v.sla_due_at asc, v.id asc');
    const text = await plan(admin, sql);
    expect(text).toContain('conversations_account_sla_due_idx');
    expect(text).not.toMatch(/Sort/);
    // The index gives 21 rows and the page takes them: no tie group read beyond the page.
    expect(text).toMatch(/conversations_account_sla_due_idx on conversations v \(actual rows=21(\.00)? loops=1\)/);
    // Oldest deadline first, the id breaking ties (200 conversations share each deadline).
    const found = await ids(admin, page('public.inbox_conversations(null, false)', 'and v.sla_due_at <= now()', 'v.sla_due_at asc, v.id asc'));
    expect(found).toHaveLength(21);
    expect(await ids(other, sql)).toEqual([]);
  });

  it('the first page reads the newest-first index, 21 rows, and is not counted', async () => {
    const text = await plan(admin, page('public.inbox_conversations(null, false)', '', 'v.last_message_at desc, v.id desc'));
    expect(text).toContain('conversations_account_last_message_idx');
    expect(text).not.toMatch(/Sort/);
  });

  it("'Mine' reads the assignee's index in the list's order, with no sort", async () => {
    const text = await plan(admin, page('public.inbox_conversations(null, true)', '', 'v.last_message_at desc, v.id desc'));
    expect(text).toContain('conversations_assignee_idx');
    expect(text).not.toMatch(/Sort/);
  });

  it("a search reads only its matches (inbox_search), never the account's newest-first index", async () => {
    const sql = page(`public.inbox_search('Customer 42', false)`, '', 'v.last_message_at desc, v.id desc');
    const text = await plan(admin, sql);
    expect(text).toContain('Function Scan on search_conversations');
    expect(text).not.toContain('conversations_account_last_message_idx');
    // Customer 42 and 420-429: 11 contacts of ten conversations each.
    expect(await ids(admin, sql)).toHaveLength(21);
    expect(await ids(other, sql)).toEqual([]);
    const mine = await ids(admin, page(`public.inbox_search('Customer 42', true)`, '', 'v.last_message_at desc, v.id desc'));
    const assigned = await ids(admin, `select id from public.conversations where assignee_id = '${admin.userId}'`);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((id) => assigned.includes(id))).toBe(true);
  });

  it('a rare tag (5 of 5,000) reads only its own rows from the tag index, in list order, never the conversations table whole', async () => {
    const sql = page(`public.inbox_tagged('legal', false)`, '', 'v.last_message_at desc, v.id desc');
    const text = await plan(admin, sql);
    expect(text).toContain('conversation_tags_inbox_idx');
    expect(text).not.toMatch(/Seq Scan/);
    // The tag index gives the tag's five rows (the planner may sort those five) and each conversation is
    // read once by its id: nothing of the account's other 4,995 conversations is read.
    expect(text).toMatch(/conversation_tags_inbox_idx( on conversation_tags t)? \(actual rows=5(\.00)? loops=1\)/);
    expect(text).toMatch(/on conversations v \(actual rows=1(\.00)? loops=5\)/);
    const found = await ids(admin, sql);
    const expected = await ids(admin, `select id from public.conversations where tags @> '{legal}' order by last_message_at desc, id desc`);
    expect(found).toEqual(expected);
    expect(found).toHaveLength(5);
    expect(await ids(other, sql)).toEqual([]);
  });

  it("a common tag's page is the tag index's first entries, with no sort; 'Mine' keeps to the caller's", async () => {
    // As loadInbox calls it: a status on top, and no `tags` filter (with one the planner expected too few rows
    // and hashed the account's conversations).
    const sql = page(`public.inbox_tagged('vip', false)`, `and v.status = 'open'`, 'v.last_message_at desc, v.id desc');
    const text = await plan(admin, sql);
    expect(text).toContain('conversation_tags_inbox_idx');
    expect(text).not.toMatch(/Sort|Seq Scan/);
    expect(text).toMatch(/conversation_tags_inbox_idx on conversation_tags t \(actual rows=21(\.00)? loops=1\)/);
    expect(await ids(admin, sql)).toEqual(
      await ids(admin, `select id from public.conversations where tags @> '{vip}' and merged_into_id is null order by last_message_at desc, id desc limit 21`),
    );
    const mine = await ids(admin, page(`public.inbox_tagged('vip', true)`, '', 'v.last_message_at desc, v.id desc'));
    expect(mine).toHaveLength(21);
    expect(mine).toEqual(
      await ids(admin, `select id from public.conversations where tags @> '{vip}' and assignee_id = '${admin.userId}' order by last_message_at desc, id desc limit 21`),
    );
  });

  it("inbox_search gives each role what the inbox gives it: staff the account's matches, outsiders nothing", async () => {
    const found = async (member: Member) => {
      const { data, error } = await member.client.rpc('inbox_search', { p_query: 'Customer 42', p_mine: false }, { get: true }).select('id').limit(50);
      if (error) throw new Error(error.message);
      return ((data ?? []) as { id: string }[]).length;
    };
    expect(await found(admin)).toBe(50);
    for (const role of ['member', 'auditor']) expect(await found(await addMember(backend, admin, role, `inbox-search-${role}`))).toBe(50);
    for (const role of ['client', 'supplier']) expect(await found(await addMember(backend, admin, role, `inbox-search-${role}`))).toBe(0);
    expect(await found(other)).toBe(0);
    const anon = await anonClient(backend).rpc('inbox_search', { p_query: 'Customer 42' }, { get: true });
    expect(anon.error).not.toBeNull();
  });
});
