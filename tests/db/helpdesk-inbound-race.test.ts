// Two mails from one new sender delivered at the same time make one contact
// (migration 20261207150001; found by bench/backend/helpdesk-inbound-email.ts
// on PostgreSQL). receive_email was serialised per Message-ID only: the second
// delivery looked the sender up while the first's transaction, which had
// inserted the contact, was still open, found none and inserted another.
// PostgreSQL only (TEST_POSTGRES_URL): PGlite is one connection and runs one
// transaction at a time, so the two can never overlap there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySchema, asRole, asUser, createPostgres, insertAuthUser, one, postgresUrl, type TestDatabase } from './support/sql-db.ts';

const SENDER = 'new.sender@customer.example';
const receive = `select public.receive_email($1, $2, 'New Sender', $3, 'Where is my order?', $4) as stored`;

describe.skipIf(!postgresUrl)('receive_email: one new sender, two mails at once (PostgreSQL)', () => {
  let target: TestDatabase;
  let mailbox: string;

  beforeAll(async () => {
    target = await createPostgres();
    await applySchema(target.db);
    const admin = await insertAuthUser(target.db, 'race-admin@example.test');
    mailbox = (await asUser(target.db, admin, (tx) => one<{ local_part: string }>(tx, 'select local_part from public.inbound_mailbox()'))).local_part;
  }, 180_000);
  afterAll(() => target?.drop());

  it('makes one contact: the second delivery waits for the first and finds its contact', async () => {
    const { db } = target;
    const asService = <T>(fn: Parameters<typeof asRole<T>>[3]) => asRole(db, 'service_role', { role: 'service_role' }, fn);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstStored!: () => void;
    const stored = new Promise<void>((resolve) => (firstStored = resolve));
    // The first delivery stores its mail (and the new contact) and keeps its transaction open.
    const first = asService(async (tx) => {
      await tx.query(receive, [`${mailbox}@in.opshub.test`, SENDER, 'First thread', '<race-1@customer.example>']);
      firstStored();
      await held;
    });
    await stored;
    let secondDone = false;
    const second = asService((tx) => tx.query(receive, [`${mailbox}@in.opshub.test`, SENDER, 'Second thread', '<race-2@customer.example>'])).then(() => {
      secondDone = true;
    });
    // Until the second has either finished (it did not wait) or is waiting on an advisory lock.
    for (let i = 0; i < 200 && !secondDone; i++) {
      const { waiting } = await one<{ waiting: boolean }>(db, `select exists (select 1 from pg_locks where locktype = 'advisory' and not granted) as waiting`);
      if (waiting) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    release();
    await Promise.all([first, second]);

    const counted = await one<{ contacts: string; messages: string; conversations: string }>(db,
      `select (select count(*) from public.contacts where lower(email) = $1) as contacts,
              (select count(*) from public.messages where sender_email = $1) as messages,
              (select count(distinct conversation_id) from public.messages where sender_email = $1) as conversations`, [SENDER]);
    expect(counted).toEqual({ contacts: '1', messages: '2', conversations: '2' });
  }, 60_000);
});
