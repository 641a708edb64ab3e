// The public link of a quote (decision 030), in SQL: the token is stored
// only as its sha256; anon reaches one quote by its token and nothing else; a
// wrong, expired, declined or signed link changes nothing; the first open
// marks it viewed once; two accepts at once sign it once (row lock, proved on
// the PostgreSQL server with two connections); the expiry sweep; the per-token
// limit.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../supabase/local/db.ts';
import { signedDocumentHash } from '../../app/lib/pdf/content-hash.ts';
import { encodePng } from '../../app/features/quotes/pdf/signature-png.ts';
import { normalSignaturePng, toBase64, zeroRowsPng } from '../support/png-bomb.ts';
import { applySchema, asRole, asUser, createPglite, createPostgres, insertAuthUser, one, postgresUrl, type TestDatabase } from './support/sql-db.ts';

const targets = [
  { name: 'PGlite', create: createPglite, skip: false },
  { name: 'PostgreSQL', create: () => createPostgres(), skip: !postgresUrl },
];

// A small drawn signature: 48 x 14 RGBA, all transparent (a PNG as the page's canvas makes).
const PNG = Buffer.from(encodePng({ width: 48, height: 14, colorType: 6 }, new Uint8Array(14 * (48 * 4 + 1)))).toString('base64');

/** The link's limits count in fixed minutes: a test that counts uses waits out a minute about to end. */
async function awayFromMinuteEnd(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

interface LinkAnswer {
  state: string;
  account_name?: string;
  quote?: Record<string, unknown>;
  items?: Record<string, unknown>[];
  signed_now?: boolean;
  declined_now?: boolean;
}

for (const target of targets) {
  describe.skipIf(target.skip)(`quote links on ${target.name}`, () => {
    let handle: TestDatabase;
    let db: Db;
    let accountId: string;

    beforeAll(async () => {
      handle = await target.create();
      db = handle.db;
      await applySchema(db);
      const auth = await insertAuthUser(db, `qlink-${randomBytes(4).toString('hex')}@x.test`);
      accountId = (await one<{ account_id: string }>(db, 'select account_id from public.users where auth_user_id = $1', [auth])).account_id;
    }, 120_000);
    afterAll(async () => handle?.drop());

    const anon = <T>(fn: (tx: Queryable) => Promise<T>) => asRole(db, 'anon', { role: 'anon' }, fn);
    const service = <T>(fn: (tx: Queryable) => Promise<T>) => asRole(db, 'service_role', { role: 'service_role' }, fn);

    async function sentQuote(expiresAt = "now() + interval '30 days'"): Promise<{ id: string; token: string }> {
      const { id } = await one<{ id: string }>(db,
        `insert into public.quotes (account_id, currency, status, expires_at, notes)
         values ($1, 'EUR', 'sent', ${expiresAt}, 'Thanks') returning id`, [accountId]);
      await db.query(
        `insert into public.quote_items (quote_id, description, qty, unit_price, total, position)
         values ($1, 'Design', 2, 5000, 10000, 0), ($1, 'Build', 1, 2500, 2500, 1)`, [id]);
      const { token } = await service((tx) => one<{ token: string }>(tx, 'select public.issue_quote_link($1) as token', [id]));
      fixtureAudit.set(id, (await auditRows(id)).length);
      return { id, token };
    }
    const quote = (id: string) => one<Record<string, unknown>>(db, 'select * from public.quotes where id = $1', [id]);
    const call = (sql: string, params: unknown[]) => anon((tx) => one<{ r: LinkAnswer }>(tx, sql, params)).then((row) => row.r);
    const open = (token: string) => call('select public.open_quote_link($1) as r', [token]);
    const accept = (token: string, name = 'Ada Client', png: string | null = null, tx?: Queryable) =>
      tx
        ? one<{ r: LinkAnswer }>(tx, 'select public.accept_quote($1, $2, $3, $4) as r', [token, name, 'ada@client.test', png]).then((r) => r.r)
        : call('select public.accept_quote($1, $2, $3, $4) as r', [token, name, 'ada@client.test', png]);
    const decline = (token: string, reason: string | null = 'Too dear') =>
      call('select public.decline_quote($1, $2) as r', [token, reason]);
    const auditRows = async (id: string) =>
      (await db.query<{ action: string }>('select action from public.audit_logs where resource_id = $1 order by created_at, id', [id])).rows.map((r) => r.action);
    // The audit rows written after the fixture was made (its items' totals write quote_updated rows).
    const fixtureAudit = new Map<string, number>();
    const auditActions = async (id: string) => (await auditRows(id)).slice(fixtureAudit.get(id) ?? 0);

    it('issues a 32-byte base64url token stored only as its sha256; a new link replaces the old', async () => {
      const { id, token } = await sentQuote();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      const row = await quote(id);
      expect(Buffer.from(row.link_token_hash as Uint8Array).toString('hex')).toBe(createHash('sha256').update(token).digest('hex'));
      const { token: again } = await service((tx) => one<{ token: string }>(tx, 'select public.issue_quote_link($1) as token', [id]));
      expect(again).not.toBe(token);
      expect((await open(token)).state).toBe('not_found');
      expect((await open(again)).state).toBe('open');
      // Issuing is the runner's: no browser role may.
      await expect(anon((tx) => tx.query('select public.issue_quote_link($1)', [id]))).rejects.toThrow(/permission denied/);
      await expect(asRole(db, 'authenticated', { role: 'authenticated', sub: crypto.randomUUID() },
        (tx) => tx.query('select public.issue_quote_link($1)', [id]))).rejects.toThrow(/permission denied/);
      // So is recording how its mail went (no audit row: bookkeeping).
      await expect(anon((tx) => tx.query('select public.record_quote_delivery($1, $2)', [id, 'forged']))).rejects.toThrow(/permission denied/);
      await service((tx) => tx.query('select public.record_quote_delivery($1, $2)', [id, 'Connection refused']));
      expect((await quote(id)).delivery_error).toBe('Connection refused');
      await service((tx) => tx.query('select public.record_quote_delivery($1, null)', [id]));
      expect((await quote(id)).delivery_error).toBeNull();
      // Only the open above wrote an audit row; issuing links and recording delivery wrote none.
      expect(await auditActions(id)).toEqual(['quote_viewed']);
    });

    it('anon reads no quote directly, only the one its token opens, and nothing of other rows', async () => {
      const { token } = await sentQuote();
      // Refused outright, or no rows: either way nothing.
      for (const table of ['quotes', 'quote_items', 'accounts', 'contacts']) {
        const rows = await anon((tx) => tx.query(`select * from public.${table}`)).then((r) => r.rows, () => []);
        expect(rows, table).toEqual([]);
      }
      const view = await open(token);
      expect(view.state).toBe('open');
      expect(view.quote).toMatchObject({ currency: 'EUR', subtotal: 12500, total: 12500, notes: 'Thanks' });
      expect(view.items).toEqual([
        { description: 'Design', qty: 2, unit_price: 5000, total: 10000 },
        { description: 'Build', qty: 1, unit_price: 2500, total: 2500 },
      ]);
      // No ids, no contact, no hash of the link.
      const text = JSON.stringify(view);
      expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      expect(text).not.toContain('link_token_hash');
      expect(text).not.toContain('contact');
    });

    it('a wrong or malformed token finds nothing and changes nothing', async () => {
      const { id, token } = await sentQuote();
      const before = await quote(id);
      const wrong = randomBytes(32).toString('base64url');
      for (const t of [wrong, '', 'short', token.slice(0, 42) + (token.endsWith('A') ? 'B' : 'A'), `${token}x`]) {
        expect((await open(t)).state).toBe('not_found');
        expect((await accept(t)).state).toBe('not_found');
        expect((await decline(t)).state).toBe('not_found');
      }
      expect(await quote(id)).toEqual(before);
    });

    it('the first open marks the quote viewed, once, with its audit row and event', async () => {
      const { id, token } = await sentQuote();
      await open(token);
      const first = await quote(id);
      expect(first.status).toBe('viewed');
      expect(first.viewed_at).not.toBeNull();
      await open(token);
      expect((await quote(id)).viewed_at).toEqual(first.viewed_at);
      expect(await auditActions(id)).toEqual(['quote_viewed']);
      const events = await db.query<{ kind: string }>('select kind from public.events where resource_id = $1', [id]);
      expect(events.rows.map((e) => e.kind)).toEqual(['quote_viewed']);
    });

    it('accept signs with the evidence, audit row, event and the admins\' mail job; a second accept changes nothing', async () => {
      const { id, token } = await sentQuote();
      const signed = await accept(token, '  Ada Client ', PNG);
      expect(signed).toMatchObject({ state: 'signed', signed_now: true });
      const row = await quote(id);
      expect(row).toMatchObject({ status: 'signed', signer_name: 'Ada Client', signer_email: 'ada@client.test' });
      expect(row.content_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.signed_at).not.toBeNull();
      expect(Buffer.from(row.signature_png as Uint8Array).toString('base64')).toBe(PNG);
      expect(await auditActions(id)).toEqual(['quote_signed']);
      const audit = await one<{ old_values: object; new_values: Record<string, unknown> }>(db,
        `select old_values, new_values from public.audit_logs where resource_id = $1 and action = 'quote_signed'`, [id]);
      expect(audit.old_values).toMatchObject({ status: 'sent', signed_at: null });
      expect(audit.new_values).toMatchObject({ status: 'signed', signer_name: 'Ada Client', content_hash: row.content_hash, drawn_signature: true });
      const job = await one<{ kind: string; payload: object }>(db, `select kind, payload from public.jobs where subject_id = $1`, [id]);
      expect(job).toEqual({ kind: 'quote_accepted', payload: { quote_id: id } });

      const again = await accept(token, 'Mallory');
      expect(again.state).toBe('signed');
      expect(again.signed_now).toBeUndefined();
      expect(await decline(token)).toMatchObject({ state: 'signed' });
      expect(await quote(id)).toEqual(row);
    });

    it('bad input is refused and changes nothing', async () => {
      const { id, token } = await sentQuote();
      const before = await quote(id);
      const refused = (sql: string, params: unknown[]) => expect(anon((tx) => tx.query(sql, params))).rejects.toThrow();
      await refused('select public.accept_quote($1, $2, null, null)', [token, '   ']);
      await refused('select public.accept_quote($1, $2, null, null)', [token, 'x'.repeat(201)]);
      await refused('select public.accept_quote($1, $2, $3, null)', [token, 'Ada', 'not-an-email']);
      await refused('select public.accept_quote($1, $2, null, $3)', [token, 'Ada', 'not base64!']);
      await refused('select public.accept_quote($1, $2, null, $3)', [token, 'Ada', Buffer.from('GIF89a').toString('base64')]);
      const huge = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200_001)]).toString('base64');
      await refused('select public.accept_quote($1, $2, null, $3)', [token, 'Ada', huge]);
      await refused('select public.decline_quote($1, $2)', [token, 'x'.repeat(2001)]);
      expect(await quote(id)).toEqual(before);
    });

    it('decline records the reason; then neither accept nor decline changes it', async () => {
      const { id, token } = await sentQuote();
      expect(await decline(token, '  Too dear  ')).toMatchObject({ state: 'declined', declined_now: true });
      const row = await quote(id);
      expect(row).toMatchObject({ status: 'declined', decline_reason: 'Too dear' });
      expect(await auditActions(id)).toEqual(['quote_declined']);
      expect((await accept(token)).state).toBe('declined');
      expect((await decline(token, 'again')).state).toBe('declined');
      expect(await quote(id)).toEqual(row);
      const events = await db.query<{ kind: string }>('select kind from public.events where resource_id = $1', [id]);
      expect(events.rows.map((e) => e.kind)).toEqual(['quote_declined']);
    });

    it('a quote past its expiry is expired to its link (before and after the sweep); nothing changes', async () => {
      const { id, token } = await sentQuote("now() - interval '1 minute'");
      expect((await open(token)).state).toBe('expired');
      expect((await accept(token)).state).toBe('expired');
      expect((await decline(token)).state).toBe('expired');
      expect((await quote(id)).status).toBe('sent');
      const expired = await service((tx) => one<{ n: number }>(tx, 'select public.expire_quotes() as n'));
      expect(expired.n).toBeGreaterThanOrEqual(1);
      expect((await quote(id)).status).toBe('expired');
      expect(await auditActions(id)).toEqual(['quote_expired']);
      expect((await open(token)).state).toBe('expired');
      // A sweep finds nothing more to do; it is the runner's alone.
      expect((await service((tx) => one<{ n: number }>(tx, 'select public.expire_quotes() as n'))).n).toBe(0);
      await expect(anon((tx) => tx.query('select public.expire_quotes()'))).rejects.toThrow(/permission denied/);
    });

    it('the sweep expires drafts, sent and viewed quotes past expiry, and leaves signed ones and future ones', async () => {
      const mk = async (status: string, when: string) =>
        (await one<{ id: string }>(db, `insert into public.quotes (account_id, status, expires_at) values ($1, $2, ${when}) returning id`, [accountId, status])).id;
      const ids = {
        draft: await mk('draft', "now() - interval '1 day'"),
        viewed: await mk('viewed', "now() - interval '1 day'"),
        signed: await mk('signed', "now() - interval '1 day'"),
        future: await mk('sent', "now() + interval '1 day'"),
      };
      await service((tx) => tx.query('select public.expire_quotes()'));
      const status = async (id: string) => (await quote(id)).status;
      expect(await status(ids.draft)).toBe('expired');
      expect(await status(ids.viewed)).toBe('expired');
      expect(await status(ids.signed)).toBe('signed');
      expect(await status(ids.future)).toBe('sent');
      const events = await db.query<{ kind: string }>('select kind from public.events where resource_id = any($1)', [Object.values(ids)]);
      expect(events.rows.map((e) => e.kind)).toEqual(['quote_expired', 'quote_expired']);
    });

    it("the PDF's document: the link's holder and the account's staff read it, amounts as exact text; no one else", async () => {
      const { id, token } = await sentQuote();
      const viaLink = await anon((tx) => one<{ d: Record<string, unknown> }>(tx, 'select public.quote_link_document($1) as d', [token]));
      expect(viaLink.d).toMatchObject({ currency: 'EUR', subtotal: '12500', total: '12500', notes: 'Thanks', signature: null });
      expect((viaLink.d.items as unknown[]).length).toBe(2);
      const wrong = await anon((tx) => one<{ d: unknown }>(tx, 'select public.quote_link_document($1) as d', ['B'.repeat(43)]));
      expect(wrong.d).toBeNull();
      await expect(anon((tx) => tx.query('select public.quote_document($1)', [id]))).rejects.toThrow(/permission denied/);

      const staff = (await one<{ auth_user_id: string }>(db, 'select auth_user_id from public.users where account_id = $1 limit 1', [accountId])).auth_user_id;
      const own = await asUser(db, staff, (tx) => one<{ d: Record<string, unknown> | null }>(tx, 'select public.quote_document($1) as d', [id]));
      expect(own.d).toMatchObject({ quoteNumber: (await quote(id)).quote_number, total: '12500' });
      const stranger = await insertAuthUser(db, `qdoc-${randomBytes(4).toString('hex')}@x.test`);
      const theirs = await asUser(db, stranger, (tx) => one<{ d: unknown }>(tx, 'select public.quote_document($1) as d', [id]));
      expect(theirs.d).toBeNull();
    });

    it("opened to be signed: the page's answer and the PDF's document in one call, one use of the link; an unopen quote has none", async () => {
      await awayFromMinuteEnd();
      const { token } = await sentQuote();
      const key = `quote_link:token:${createHash('sha256').update(token).digest('hex')}`;
      const uses = async () => (await one<{ n: number }>(db,
        'select coalesce(sum(hits), 0)::int as n from private.rate_limit_counters where key = $1', [key])).n;
      const withDocument = await call('select public.open_quote_link($1, true) as r', [token]) as LinkAnswer & { document?: unknown };
      expect(await uses()).toBe(1);
      const { document, ...page } = withDocument;
      expect(page).toEqual(await open(token));
      const pdf = await anon((tx) => one<{ d: unknown }>(tx, 'select public.quote_link_document($1) as d', [token]));
      expect(document).toEqual(pdf.d);
      expect(await uses()).toBe(3);
      await decline(token);
      const closed = await call('select public.open_quote_link($1, true) as r', [token]) as LinkAnswer & { document?: unknown };
      expect(closed.state).toBe('declined');
      expect(closed).not.toHaveProperty('document');
    });

    it('a revised quote is superseded: its link says so, shows nothing of it, and neither signs, declines nor gives a PDF', async () => {
      const { id, token } = await sentQuote();
      expect((await open(token)).state).toBe('open');
      const staff = (await one<{ auth_user_id: string }>(db, 'select auth_user_id from public.users where account_id = $1 limit 1', [accountId])).auth_user_id;
      const revision = await asUser(db, staff, (tx) => one<{ id: string }>(tx, 'select (public.revise_quote($1)).id as id', [id]));
      const before = await quote(id);
      expect(before).toMatchObject({ status: 'superseded', superseded_by: revision.id });
      const answer = await open(token);
      expect(answer).toEqual({ state: 'superseded', account_name: expect.any(String) });
      expect(await accept(token, 'Ada Client', PNG)).toEqual(answer);
      expect(await decline(token)).toEqual(answer);
      const pdf = await anon((tx) => one<{ d: unknown }>(tx, 'select public.quote_link_document($1) as d', [token]));
      expect(pdf.d).toBeNull();
      expect(await quote(id)).toEqual(before);
      expect((await auditActions(id)).filter((action) => action !== 'quote_updated')).toEqual(['quote_viewed', 'quote_revised']);
    });

    it('signing binds what the client saw: the database keeps its snapshot and the SHA-256 of its canonical text', async () => {
      const suffix = randomBytes(3).toString('hex');
      const { id: contactId } = await one<{ id: string }>(db,
        `insert into public.contacts (account_id, name, company, email) values ($1, 'Ada Client', 'Client Co', $2) returning id`,
        [accountId, `ada-${suffix}@client.test`]);
      const { id, token } = await sentQuote();
      await db.query('update public.quotes set contact_id = $2 where id = $1', [id, contactId]);
      const accountName = (await one<{ name: string }>(db, 'select name from public.accounts where id = $1', [accountId])).name;
      // The caller has no hash to give any more: the old five-argument function is gone.
      await expect(anon((tx) => tx.query('select public.accept_quote($1, $2, $3, $4, $5)', [token, 'Ada', null, 'a'.repeat(64), null])))
        .rejects.toThrow(/does not exist/);
      await expect(anon((tx) => tx.query('select public.accept_quote(p_token => $1, p_name => $2, p_content_hash => $3)', [token, 'Ada', 'a'.repeat(64)])))
        .rejects.toThrow(/does not exist/);
      expect((await accept(token, 'Ada Client', PNG)).state).toBe('signed');

      const row = await quote(id);
      const snapshot = row.signed_document as Record<string, unknown>;
      expect(snapshot).toEqual({
        v: 3,
        seller: expect.objectContaining({ name: accountName }),
        account: { name: accountName, contactEmail: expect.toBeOneOf([null, expect.any(String)]) },
        quoteNumber: row.quote_number,
        issuedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        expiresAt: expect.stringMatching(/Z$/),
        currency: 'EUR',
        contact: { name: 'Ada Client', company: 'Client Co', email: `ada-${suffix}@client.test` },
        items: [
          { description: 'Design', quantity: 2, unitPrice: '5000', lineTotal: '10000' },
          { description: 'Build', quantity: 1, unitPrice: '2500', lineTotal: '2500' },
        ],
        subtotal: '12500', discountPercent: '0.00', discount: '0', taxRate: '0.00', tax: '0', total: '12500', notes: 'Thanks',
      });
      // Anyone holding the snapshot can check the hash: sorted keys, no whitespace, SHA-256 of the UTF-8.
      const canonical = (value: unknown): string => Array.isArray(value)
        ? `[${value.map(canonical).join(',')}]`
        : value !== null && typeof value === 'object'
          ? `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`
          : JSON.stringify(value);
      expect(row.content_hash).toBe(createHash('sha256').update(canonical(snapshot), 'utf8').digest('hex'));
      expect(row.content_hash).toBe(await signedDocumentHash(snapshot));

      // Renamed after signing: the contact and the seller. What was signed stays as it was.
      await db.query(`update public.contacts set name = 'Renamed Person', company = 'Renamed Co' where id = $1`, [contactId]);
      await db.query(`update public.accounts set name = 'Renamed Seller' where id = $1`, [accountId]);
      const after = await quote(id);
      expect(after.signed_document).toEqual(snapshot);
      expect(after.content_hash).toBe(row.content_hash);
      const document = (await anon((tx) => one<{ d: Record<string, unknown> }>(tx, 'select public.quote_link_document($1) as d', [token]))).d;
      expect(document).toMatchObject({
        account: { name: accountName }, contact: { name: 'Ada Client', company: 'Client Co' }, status: 'signed',
        signature: { signerName: 'Ada Client', contentHash: row.content_hash },
      });
      expect(String((document.signature as Record<string, unknown>).drawnSignaturePng).replace(/\s/g, '')).toBe(PNG);
      expect(document).not.toHaveProperty('v');
      await db.query('update public.accounts set name = $2 where id = $1', [accountId, accountName]);
    });

    it('a drawn signature must be a small PNG of a signature pad\'s size: a decompression bomb is refused at signing', async () => {
      const { id, token } = await sentQuote();
      const before = await quote(id);
      const refusedWith = (png: Uint8Array, message: RegExp) =>
        expect(anon((tx) => tx.query('select public.accept_quote($1, $2, null, $3)', [token, 'Ada', toBase64(png)]))).rejects.toThrow(message);
      // 192 MB of pixels in a ~190 KB file: too large, and too many pixels even when it would fit.
      await refusedWith(zeroRowsPng({ width: 8000, height: 6000 }), /too large \(at most 100 KB\)/);
      await refusedWith(zeroRowsPng({ width: 3000, height: 2000 }), /too large \(at most 1200 x 400 pixels\)/);
      const sixteenBit = normalSignaturePng();
      sixteenBit[24] = 16;
      await refusedWith(sixteenBit, /8-bit, not interlaced/);
      expect(await quote(id)).toEqual(before);
      // A signature as the page draws it is taken.
      expect((await accept(token, 'Ada Client', toBase64(normalSignaturePng()))).state).toBe('signed');
    });

    it('30 uses of a link in a minute, then it answers rate_limited and changes nothing', async () => {
      await awayFromMinuteEnd();
      const { id, token } = await sentQuote();
      for (let i = 0; i < 30; i += 1) expect((await open(token)).state).toBe('open');
      expect((await open(token)).state).toBe('rate_limited');
      expect((await accept(token)).state).toBe('rate_limited');
      expect((await quote(id)).status).toBe('viewed');
      // Another link is not limited by it.
      expect((await open((await sentQuote()).token)).state).toBe('open');
    });

    it.skipIf(target.name !== 'PostgreSQL')('two accepts at once on two connections: exactly one signs, the other sees it signed', async () => {
      const { id, token } = await sentQuote();
      // The first holds the row lock (its transaction stays open); the second
      // starts while it does, waits on the lock, and then reads the signed row.
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      let firstSigned!: () => void;
      const signedInFirst = new Promise<void>((resolve) => { firstSigned = resolve; });
      const first = asRole(db, 'anon', { role: 'anon' }, async (tx) => {
        const answer = await accept(token, 'First Signer', null, tx);
        firstSigned();
        await held;
        return answer;
      });
      await signedInFirst;
      const second = asRole(db, 'anon', { role: 'anon' }, (tx) => accept(token, 'Second Signer', null, tx));
      // The second is blocked on the row lock: prove it waits, from the server's own view.
      for (;;) {
        const waiting = await one<{ n: number }>(db,
          `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%accept_quote%'`);
        if (waiting.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      release();
      const [a, b] = await Promise.all([first, second]);
      expect(a).toMatchObject({ state: 'signed', signed_now: true });
      expect(b.state).toBe('signed');
      expect(b.signed_now).toBeUndefined();
      expect(await quote(id)).toMatchObject({ status: 'signed', signer_name: 'First Signer' });
      expect(await auditActions(id)).toEqual(['quote_signed']);
      expect((await db.query(`select 1 from public.jobs where idempotency_key = $1`, [`quote_accepted:${id}`])).rows).toHaveLength(1);
    });
  });
}
