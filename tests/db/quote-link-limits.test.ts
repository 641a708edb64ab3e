// The database's own limits on a quote's public link (issue 30): per caller
// address and per link, in one-minute windows, so a direct REST call is
// limited too and nobody is locked out for longer than the window.
// private.hit_rate_limit is the generic counter under them.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../supabase/local/db.ts';
import { startBackend, type TestBackend } from './support/backend.ts';
import { asRole, insertAuthUser, one } from './support/sql-db.ts';

let backend: TestBackend;
/** The backend's database as a connection that runs transactions (it is one). */
const database = () => backend.db as Db;
let accountId: string;

beforeAll(async () => {
  backend = await startBackend();
  const auth = await insertAuthUser(backend.db, `limits-${randomBytes(4).toString('hex')}@x.test`);
  accountId = (await one<{ account_id: string }>(backend.db, 'select account_id from public.users where auth_user_id = $1', [auth])).account_id;
}, 120_000);
afterAll(async () => backend?.stop());

async function sentQuoteToken(): Promise<{ id: string; token: string }> {
  const { id } = await one<{ id: string }>(backend.db,
    `insert into public.quotes (account_id, currency, status, expires_at) values ($1, 'EUR', 'sent', now() + interval '30 days') returning id`,
    [accountId]);
  const { token } = await asRole(database(), 'service_role', { role: 'service_role' },
    (tx) => one<{ token: string }>(tx, 'select public.issue_quote_link($1) as token', [id]));
  return { id, token };
}

/** A call as anon from an address, as the API gateway passes it (its X-Forwarded-For). */
const from = <T>(ip: string | null, fn: (tx: Queryable) => Promise<T>) =>
  asRole(database(), 'anon', { role: 'anon' }, async (tx) => {
    if (ip) await tx.query(`select set_config('request.headers', $1, true)`, [JSON.stringify({ 'x-forwarded-for': `10.9.9.9, ${ip}` })]);
    return fn(tx);
  });
const openFrom = (ip: string | null, token: string) =>
  from(ip, (tx) => one<{ r: { state: string } }>(tx, 'select public.open_quote_link($1) as r', [token])).then((row) => row.r.state);

/**
 * The windows are fixed minutes of the clock: a test that counts up to a limit
 * must not straddle the end of one (its count would start again). Each such test
 * first waits out the minute when less than 15 seconds of it are left.
 */
async function awayFromMinuteEnd(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

/** Time passes: every counter's window moves a minute into the past. */
const aMinuteLater = () => backend.db.query(
  `update private.rate_limit_counters set window_start = window_start - interval '1 minute', window_end = window_end - interval '1 minute'`);

describe('private.hit_rate_limit', () => {
  it('counts hits of a key in a window, refuses over the limit until the window ends, and no API role may call it', async () => {
    await awayFromMinuteEnd();
    const key = `test:${randomBytes(4).toString('hex')}`;
    const hit = () => one<{ ok: boolean }>(backend.db, `select private.hit_rate_limit($1, 3, interval '1 minute') as ok`, [key]).then((r) => r.ok);
    expect([await hit(), await hit(), await hit(), await hit(), await hit()]).toEqual([true, true, true, false, false]);
    await aMinuteLater();
    expect(await hit()).toBe(true);
    for (const role of ['anon', 'authenticated'] as const) {
      await expect(asRole(database(), role, { role }, (tx) => tx.query(`select private.hit_rate_limit('x', 1, interval '1 minute')`)))
        .rejects.toThrow(/permission denied/);
      await expect(asRole(database(), role, { role }, (tx) => tx.query('select * from private.rate_limit_counters')))
        .rejects.toThrow(/permission denied/);
    }
    // Ended windows are dropped as new hits come.
    await aMinuteLater();
    await aMinuteLater();
    await hit();
    const { n } = await one<{ n: number }>(backend.db, 'select count(*)::int as n from private.rate_limit_counters where window_end < now()');
    expect(n).toBe(0);
  });
});

describe('a quote link, called directly', () => {
  it('120 calls a minute from one address, wrong tokens included; then that address is refused, others are not, and it comes back a minute later', async () => {
    await awayFromMinuteEnd();
    const { token } = await sentQuoteToken();
    const guessing = '198.51.100.1';
    for (let i = 0; i < 120; i++) expect(await openFrom(guessing, randomBytes(32).toString('base64url'))).toBe('not_found');
    expect(await openFrom(guessing, token)).toBe('rate_limited');
    expect(await from(guessing, (tx) => one<{ r: { state: string } }>(tx, 'select public.accept_quote($1, $2) as r', [token, 'Eve'])))
      .toEqual({ r: { state: 'rate_limited' } });
    expect(await from(guessing, (tx) => one<{ d: unknown }>(tx, 'select public.quote_link_document($1) as d', [token])))
      .toEqual({ d: { limited: true } });
    expect(await openFrom('198.51.100.2', token)).toBe('open');
    await aMinuteLater();
    expect(await openFrom(guessing, token)).toBe('open');
  });

  it('a forwarded link used up at another address does not lock out the client: 30 a minute per link and address', async () => {
    await awayFromMinuteEnd();
    const { id, token } = await sentQuoteToken();
    const forwarded = '203.0.113.50';
    for (let i = 0; i < 30; i++) expect(await openFrom(forwarded, token)).toBe('open');
    expect(await openFrom(forwarded, token)).toBe('rate_limited');
    // The rightful client, elsewhere, opens and signs.
    const client = '192.0.2.10';
    expect(await openFrom(client, token)).toBe('open');
    const signed = await from(client, (tx) => one<{ r: { state: string } }>(tx, 'select public.accept_quote($1, $2) as r', [token, 'Ada Client']));
    expect(signed.r.state).toBe('signed');
    expect((await one<{ status: string }>(backend.db, 'select status from public.quotes where id = $1', [id])).status).toBe('signed');
  });

  it('each call counts on both per-link counters, also when the per-address one is over (no short-circuit)', async () => {
    await awayFromMinuteEnd();
    const { token } = await sentQuoteToken();
    const forwarded = '203.0.113.77';
    const states: string[] = [];
    for (let i = 0; i < 40; i++) states.push(await openFrom(forwarded, token));
    expect(states.filter((state) => state === 'open')).toHaveLength(30);
    // The link's own counter (every address) saw all 40 calls, the 10 refused ones too.
    const { hits } = await one<{ hits: number }>(backend.db,
      `select coalesce(sum(c.hits), 0)::int as hits from private.rate_limit_counters c
        where c.key = 'quote_link:token:' || encode(private.quote_link_token_hash($1), 'hex') and c.window_end > now()`, [token]);
    expect(hits).toBe(40);
  });

  it('300 calls a minute of one link over all addresses; a minute later it opens again', async () => {
    await awayFromMinuteEnd();
    const { token } = await sentQuoteToken();
    for (let i = 0; i < 300; i++) expect(await openFrom(`100.64.${Math.floor(i / 25)}.${i % 25}`, token)).toBe('open');
    expect(await openFrom('100.64.99.1', token)).toBe('rate_limited');
    await aMinuteLater();
    expect(await openFrom('100.64.99.1', token)).toBe('open');
  });

  it('over REST, an X-Forwarded-For the caller sends is not the address counted: the gateway appends the one it saw', async () => {
    await awayFromMinuteEnd();
    const { token } = await sentQuoteToken();
    await aMinuteLater(); // a fresh window for 127.0.0.1, whatever ran before
    const call = async (pToken: string, forwardedFor?: string) => {
      const response = await fetch(`${backend.url}/rest/v1/rpc/open_quote_link`, {
        method: 'POST',
        headers: {
          apikey: backend.anonKey, Authorization: `Bearer ${backend.anonKey}`, 'Content-Type': 'application/json',
          ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}),
        },
        body: JSON.stringify({ p_token: pToken }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { state: string }).state;
    };
    const states: string[] = [];
    // A new address each call, as a caller would forge it.
    for (let i = 0; i < 121; i++) states.push(await call(randomBytes(32).toString('base64url'), `198.18.${Math.floor(i / 250)}.${i % 250}`));
    expect(states.slice(0, 120).every((state) => state === 'not_found')).toBe(true);
    expect(states[120]).toBe('rate_limited');
    expect(await call(token)).toBe('rate_limited');
  });
});
