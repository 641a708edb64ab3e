// The module sections of /analytics (20261205500007/8): first response from
// the conversation rollups, on-time delivery from private.shipment_day_stats,
// compliance coverage and overdue reviews now; values computed by hand, the
// rollups held to a recount after updates and deletes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;
let other: Member;

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'modules');
  other = await signUpFreshAdmin(backend, 'modules-other');
});
afterAll(async () => backend?.stop());

async function conversation(accountId: string, created: string, responded: string | null) {
  const db = backend.db;
  const contact = await db.query<{ id: string }>(`insert into public.contacts (account_id, name, email) values ($1, 'C', 'c' || gen_random_uuid() || '@c.test') returning id`, [accountId]);
  await db.query(`insert into public.conversations (account_id, contact_id, subject, created_at, first_responded_at) values ($1, $2, 'Hi', $3, $4)`, [
    accountId, contact.rows[0].id, created, responded,
  ]);
}

async function shipment(accountId: string, estimate: string | null, delivered: string | null) {
  await backend.db.query(
    `insert into public.shipments (account_id, origin, destination, weight, description, estimated_delivery, status, delivered_at)
     values ($1, 'A', 'B', 1, 'Box', $2, case when $3::timestamptz is null then 'In Transit' else 'Delivered' end, $3)`,
    [accountId, estimate, delivered],
  );
}

async function recountDiffers(): Promise<number> {
  const { rows } = await backend.db.query<{ n: string }>(`
    select (select count(*) from (
              select account_id, day, sum(r), sum(s) from (
                select account_id, (created_at at time zone 'UTC')::date as day, count(first_responded_at) as r,
                       coalesce(sum(extract(epoch from first_responded_at - created_at)), 0) as s from public.conversations group by 1, 2
                union all select account_id, day, -responded_count, -response_seconds from private.conversation_day_stats) x
              group by 1, 2 having sum(r) <> 0 or sum(s) <> 0) d)
         + (select count(*) from (
              select account_id, day, sum(n), sum(e), sum(o) from (
                select account_id, (delivered_at at time zone 'UTC')::date as day, count(*) as n, count(estimated_delivery) as e,
                       count(*) filter (where private.shipment_on_time(account_id, delivered_at, estimated_delivery)) as o
                  from public.shipments where delivered_at is not null group by 1, 2
                union all select account_id, day, -delivered_count, -with_estimate_count, -on_time_count from private.shipment_day_stats) x
              group by 1, 2 having sum(n) <> 0 or sum(e) <> 0 or sum(o) <> 0) d) as n`);
  return Number(rows[0].n);
}

describe('module sections', () => {
  it('answers first response and on-time delivery for April by hand, and holds the rollups to a recount', async () => {
    // First answers after 2 h and 4 h, one unanswered; a March one (1 h) outside the range.
    await conversation(admin.accountId, '2026-04-02T10:00:00Z', '2026-04-02T12:00:00Z');
    await conversation(admin.accountId, '2026-04-10T00:00:00Z', '2026-04-10T04:00:00Z');
    await conversation(admin.accountId, '2026-04-20T23:30:00Z', null);
    await conversation(admin.accountId, '2026-03-31T10:00:00Z', '2026-03-31T11:00:00Z');
    await conversation(other.accountId, '2026-04-05T10:00:00Z', '2026-04-05T20:00:00Z');
    // Delivered in April: on time (same day), late (a day after), on time (early), without an estimate; one not delivered.
    await shipment(admin.accountId, '2026-04-03', '2026-04-03T18:00:00Z');
    await shipment(admin.accountId, '2026-04-03', '2026-04-04T09:00:00Z');
    await shipment(admin.accountId, '2026-04-30', '2026-04-12T09:00:00Z');
    await shipment(admin.accountId, null, '2026-04-15T09:00:00Z');
    await shipment(admin.accountId, '2026-04-20', null);
    const april = (await admin.client.rpc('analytics_figures', { p_from: '2026-04-01', p_to: '2026-04-30' })).data;
    expect(april.helpdesk).toMatchObject({ conversations: 3, responded: 2, first_response_hours: 3 });
    expect(april.logistics).toEqual({ delivered: 4, with_estimate: 3, on_time: 2 });
    expect(await recountDiffers()).toBe(0);
    // The unanswered one is answered 8 h later; the late shipment's estimate moves; one is deleted.
    const db = backend.db;
    await db.query(`update public.conversations set first_responded_at = created_at + interval '8 hours' where account_id = $1 and first_responded_at is null`, [admin.accountId]);
    await db.query(`update public.shipments set estimated_delivery = '2026-04-05' where account_id = $1 and delivered_at = '2026-04-04T09:00:00Z'`, [admin.accountId]);
    await db.query(`delete from public.shipments where account_id = $1 and estimated_delivery is null and delivered_at is not null`, [admin.accountId]);
    expect(await recountDiffers()).toBe(0);
    const after = (await admin.client.rpc('analytics_figures', { p_from: '2026-04-01', p_to: '2026-04-30' })).data;
    expect(after.helpdesk).toMatchObject({ conversations: 3, responded: 3, first_response_hours: 4.7 });
    expect(after.logistics).toEqual({ delivered: 3, with_estimate: 3, on_time: 3 });
    // Another account sees only its own.
    const theirs = (await other.client.rpc('analytics_figures', { p_from: '2026-04-01', p_to: '2026-04-30' })).data;
    expect(theirs.helpdesk).toMatchObject({ conversations: 1, responded: 1, first_response_hours: 10 });
    expect(theirs.logistics).toEqual({ delivered: 0, with_estimate: 0, on_time: 0 });
  });

  it('answers compliance coverage and overdue reviews now, and zeros for an account without items', async () => {
    const db = backend.db;
    const item = `insert into public.compliance_items (account_id, title, responsible_team, first_review_date, next_review_date, description)
                  values ($1, $2, 'Ops', $3, $3, 'Check') returning id`;
    await db.query(item, [admin.accountId, 'Old A', '2020-01-01']);
    await db.query(item, [admin.accountId, 'Old B', '2021-06-01']);
    const future = await db.query<{ id: string }>(item, [admin.accountId, 'Future', '2199-01-01']);
    await db.query(`update public.compliance_items set status = 'Compliant' where id = $1`, [future.rows[0].id]);
    const overdue = await db.query<{ n: string }>(`select count(*) as n from public.compliance_items where account_id = $1 and next_review_date < current_date`, [admin.accountId]);
    const { data } = await admin.client.rpc('analytics_figures', { p_from: '2026-04-01', p_to: '2026-04-30' });
    expect(data.compliance).toEqual({ total: 3, compliant: 1, overdue_reviews: Number(overdue.rows[0].n) });
    expect(Number(overdue.rows[0].n)).toBe(2);
    const theirs = (await other.client.rpc('analytics_figures', { p_from: '2026-04-01', p_to: '2026-04-30' })).data;
    expect(theirs.compliance).toEqual({ total: 0, compliant: 0, overdue_reviews: 0 });
  });
});
