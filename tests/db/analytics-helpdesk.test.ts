// SLA met % and CSAT on /analytics (20261206300001, decision 088): values
// computed by hand for an account in New York (the range's edges are part
// UTC days read from the rows), the rollup held to a rebuild from the rows
// after updates and deletes, and another account seeing only its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;
let other: Member;

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'helpdesk-figures');
  other = await signUpFreshAdmin(backend, 'helpdesk-figures-other');
  await backend.db.query(`update public.accounts set timezone = 'America/New_York' where id = $1`, [admin.accountId]);
});
afterAll(async () => backend?.stop());

interface Conversation {
  /** First response deadline, and when it was answered (null: not yet). */
  due: string;
  responded?: string | null;
  /** Resolution deadline, and when it was resolved (null: still open). */
  resolutionDue: string;
  resolved?: string | null;
}

/** A conversation with its deadlines set as given (the helpdesk's trigger computes them on insert; tests set them). */
async function conversation(accountId: string, c: Conversation): Promise<string> {
  const db = backend.db;
  const contact = await db.query<{ id: string }>(
    `insert into public.contacts (account_id, name, email) values ($1, 'C', 'c' || gen_random_uuid() || '@c.test') returning id`,
    [accountId],
  );
  const row = await db.query<{ id: string }>(
    `insert into public.conversations (account_id, contact_id, subject, created_at, first_responded_at, status, resolved_at)
     values ($1, $2, 'Hi', '2026-03-01T00:00:00Z', $3, case when $4::timestamptz is null then 'open' else 'resolved' end, $4) returning id`,
    [accountId, contact.rows[0].id, c.responded ?? null, c.resolved ?? null],
  );
  const id = row.rows[0].id;
  await db.query(`update public.conversations set first_response_due_at = $2, resolution_due_at = $3 where id = $1`, [id, c.due, c.resolutionDue]);
  return id;
}

async function breach(accountId: string, conversationId: string, target: string, due: string) {
  await backend.db.query(`insert into public.sla_breaches (account_id, conversation_id, target, due_at, breached_at) values ($1, $2, $3, $4, $4)`, [
    accountId, conversationId, target, due,
  ]);
}

async function csat(accountId: string, conversationId: string, score: number | null, answered: string | null) {
  await backend.db.query(
    `insert into public.csat_responses (conversation_id, account_id, token_hash, score, sent_at, answered_at)
     values ($1, $2, decode(md5(gen_random_uuid()::text), 'hex'), $3, '2026-03-01T00:00:00Z', $4)`,
    [conversationId, accountId, score, answered],
  );
}

/** Rows of the rollup that differ from a rebuild from the rows (0 when it was kept right). */
async function rollupDiffers(accountId: string): Promise<number> {
  const db = backend.db;
  const read = async () =>
    (await db.query<{ r: string }>(
      `select coalesce(jsonb_agg(to_jsonb(s) - 'account_id' order by day), '[]')::text as r from private.helpdesk_day_stats s
        where account_id = $1 and (sla_met_count, sla_missed_count, csat_count, csat_sum) <> (0, 0, 0, 0)`,
      [accountId],
    )).rows[0].r;
  const kept = await read();
  await db.query(`select private.rebuild_analytics_helpdesk_rollup($1)`, [accountId]);
  return kept === (await read()) ? 0 : 1;
}

const april = async (m: Member) => (await m.client.rpc('analytics_figures', { p_from: '2026-04-01', p_to: '2026-04-30' })).data.helpdesk;
const march = async (m: Member) => (await m.client.rpc('analytics_figures', { p_from: '2026-03-01', p_to: '2026-03-31' })).data.helpdesk;

describe('SLA met and CSAT', () => {
  it('answers April in New York by hand (edges in part UTC days), and keeps the rollup right', async () => {
    const id = admin.accountId;
    // April in New York is [04-01 04:00Z, 05-01 04:00Z).
    // A: first response met inside the range; resolution due in June (not counted).
    const a = await conversation(id, { due: '2026-04-02T12:00:00Z', responded: '2026-04-02T10:00:00Z', resolutionDue: '2026-06-01T12:00:00Z' });
    // B: both met, due in the two part days at the range's edges.
    const b = await conversation(id, {
      due: '2026-04-01T05:00:00Z', responded: '2026-04-01T04:30:00Z', resolutionDue: '2026-05-01T03:00:00Z', resolved: '2026-04-30T23:00:00Z',
    });
    // C: both breached (missed) in April; never answered.
    const c = await conversation(id, { due: '2026-04-10T12:00:00Z', resolutionDue: '2026-04-20T12:00:00Z' });
    await breach(id, c, 'first_response', '2026-04-10T12:00:00Z');
    await breach(id, c, 'resolution', '2026-04-20T12:00:00Z');
    // A next-response breach is not an SLA target here (met ones leave no trace).
    await breach(id, c, 'next_response', '2026-04-11T12:00:00Z');
    // D: met, but due on March 31 in New York (04-01 02:00Z) and on May 1 (05-01 05:00Z): not April's.
    const d = await conversation(id, {
      due: '2026-04-01T02:00:00Z', responded: '2026-04-01T01:00:00Z', resolutionDue: '2026-05-01T05:00:00Z', resolved: '2026-04-25T00:00:00Z',
    });
    // CSAT: 5 and 4 (at the start's edge) and 2 (at the end's edge) in April; 1 on March 31 in New York; one not answered.
    await csat(id, a, 5, '2026-04-03T10:00:00Z');
    await csat(id, b, 4, '2026-04-01T05:00:00Z');
    await csat(id, c, 2, '2026-05-01T03:30:00Z');
    await csat(id, d, 1, '2026-04-01T03:00:00Z');
    const e = await conversation(id, { due: '2026-06-01T00:00:00Z', resolutionDue: '2026-06-02T00:00:00Z' });
    await csat(id, e, null, null);

    expect(await april(admin)).toMatchObject({ sla_met: 3, sla_missed: 2, csat_responses: 3, csat_average: 3.67 });
    expect(await march(admin)).toMatchObject({ sla_met: 1, sla_missed: 0, csat_responses: 1, csat_average: 1 });
    expect(await rollupDiffers(id)).toBe(0);

    // B is reopened (its resolution no longer met), C's first-response breach is removed, A's rating changes, D is deleted.
    await backend.db.query(`update public.conversations set status = 'open' where id = $1`, [b]);
    await backend.db.query(`delete from public.sla_breaches where conversation_id = $1 and target = 'first_response'`, [c]);
    await backend.db.query(`update public.csat_responses set score = 3 where conversation_id = $1`, [a]);
    await backend.db.query(`delete from public.conversations where id = $1`, [d]);
    expect(await rollupDiffers(id)).toBe(0);
    const after = await april(admin);
    // Reopening B made the helpdesk recompute its deadlines (the first response's from its creation on
    // March 1, so no longer April's) and took its resolution away: only A's first response is met now.
    const { rows } = await backend.db.query<{ met: string }>(
      `select count(*) filter (where first_responded_at <= first_response_due_at
                                 and first_response_due_at >= '2026-04-01T04:00:00Z' and first_response_due_at < '2026-05-01T04:00:00Z')
            + count(*) filter (where resolved_at <= resolution_due_at
                                 and resolution_due_at >= '2026-04-01T04:00:00Z' and resolution_due_at < '2026-05-01T04:00:00Z') as met
         from public.conversations where account_id = $1`,
      [id],
    );
    expect(after).toMatchObject({ sla_met: Number(rows[0].met), sla_missed: 1, csat_responses: 3, csat_average: 3 });
    expect(Number(rows[0].met)).toBe(1);

    // Another account: nothing, and no average.
    expect(await april(other)).toMatchObject({ sla_met: 0, sla_missed: 0, csat_responses: 0, csat_average: null });
  });
});
