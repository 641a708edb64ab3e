// Two mails from one new sender delivered at the same time make one contact
// (migration 20261207150001; found by bench/backend/helpdesk-inbound-email.ts
// on PostgreSQL), and two SMS from one new number one contact and one
// conversation (20261207150002). receive_email and receive_sms were serialised
// per Message-ID / MessageSid only: the second delivery looked the sender up
// while the first's transaction, which had inserted the contact, was still
// open, found none and inserted another.
// PostgreSQL only (TEST_POSTGRES_URL): PGlite is one connection and runs one
// transaction at a time, so the two can never overlap there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../supabase/local/db.ts';
import { applySchema, asRole, asUser, createPostgres, insertAuthUser, one, postgresUrl, type TestDatabase } from './support/sql-db.ts';

const SENDER = 'new.sender@customer.example';
const receive = `select public.receive_email($1, $2, 'New Sender', $3, 'Where is my order?', $4) as stored`;

describe.skipIf(!postgresUrl)('receive_email and receive_sms: one new sender, two messages at once (PostgreSQL)', () => {
  let target: TestDatabase;
  let mailbox: string;
  let integration: string;

  beforeAll(async () => {
    target = await createPostgres();
    await applySchema(target.db);
    const admin = await insertAuthUser(target.db, 'race-admin@example.test');
    mailbox = (await asUser(target.db, admin, (tx) => one<{ local_part: string }>(tx, 'select local_part from public.inbound_mailbox()'))).local_part;
    integration = (await one<{ id: string }>(target.db,
      `insert into public.integrations (account_id, name, type, config)
       select u.account_id, 'Twilio', 'sms', '{"account_sid": "ACrace"}' from public.users u where u.auth_user_id = $1 returning id`, [admin])).id;
  }, 180_000);
  afterAll(() => target?.drop());

  /** The first call stores and keeps its transaction open until the second has finished or waits on a lock; then both end. */
  async function atOnce(first: (tx: Queryable) => Promise<unknown>, second: (tx: Queryable) => Promise<unknown>) {
    const { db } = target;
    const asService = (fn: (tx: Queryable) => Promise<unknown>) => asRole(db, 'service_role', { role: 'service_role' }, fn);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstStored!: () => void;
    const stored = new Promise<void>((resolve) => (firstStored = resolve));
    // The first delivery stores its mail (and the new contact) and keeps its transaction open.
    const firstDelivery = asService(async (tx) => {
      await first(tx);
      firstStored();
      await held;
    });
    await stored;
    let secondDone = false;
    const secondDelivery = asService(second).then(() => {
      secondDone = true;
    });
    // Until the second has either finished (it did not wait) or is waiting on an advisory lock.
    for (let i = 0; i < 200 && !secondDone; i++) {
      const { waiting } = await one<{ waiting: boolean }>(db, `select exists (select 1 from pg_locks where locktype = 'advisory' and not granted) as waiting`);
      if (waiting) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    release();
    await Promise.all([firstDelivery, secondDelivery]);
  }

  it('makes one contact for two mails: the second delivery waits for the first and finds its contact', async () => {
    await atOnce(
      (tx) => tx.query(receive, [`${mailbox}@in.opshub.test`, SENDER, 'First thread', '<race-1@customer.example>']),
      (tx) => tx.query(receive, [`${mailbox}@in.opshub.test`, SENDER, 'Second thread', '<race-2@customer.example>']),
    );
    const counted = await one<{ contacts: string; messages: string; conversations: string }>(target.db,
      `select (select count(*) from public.contacts where lower(email) = $1) as contacts,
              (select count(*) from public.messages where sender_email = $1) as messages,
              (select count(distinct conversation_id) from public.messages where sender_email = $1) as conversations`, [SENDER]);
    expect(counted).toEqual({ contacts: '1', messages: '2', conversations: '2' });
  }, 60_000);

  it('makes one contact and one conversation for two SMS from a new number', async () => {
    const sms = (sid: string) => (tx: Queryable) =>
      tx.query(`select public.receive_sms($1, 'sms', '+15550001234', 'Where is my order?', $2)`, [integration, sid]);
    await atOnce(sms('SMrace00000000000001'), sms('SMrace00000000000002'));
    const counted = await one<{ contacts: string; messages: string; conversations: string }>(target.db,
      `select (select count(*) from public.contacts where phone = '+15550001234') as contacts,
              (select count(*) from public.messages where sender_phone = '+15550001234') as messages,
              (select count(distinct conversation_id) from public.messages where sender_phone = '+15550001234') as conversations`);
    expect(counted).toEqual({ contacts: '1', messages: '2', conversations: '1' });
  }, 60_000);
});
