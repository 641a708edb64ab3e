// Seeding an account's helpdesk for the inbox benches (bench/backend/helpdesk-sla.ts,
// bench/business/helpdesk.ts): `count` conversations and their messages in a few
// set-based statements (insert ... select from generate_series) through the test
// backend's db handle, never one API call per row.
//
// - Contacts: one per ten conversations ('Customer <n>', customer-<n>@…), so a
//   search for one customer's name finds a handful.
// - Conversations go through every trigger (the SLA deadlines in business time,
//   audit, the analytics rollup): what the inbox filters on is what the database
//   computed. Spread over the last count × 2 minutes; 60% open, 15% pending, 25%
//   resolved; a quarter assigned to the account's admin ('Mine'); every tenth
//   tagged 'vip', one in 5,000 'legal' (a rare tag); channels mixed; half
//   answered (their first response stopped).
// - Messages: the customer's message in every conversation and the agent's reply
//   in the answered half (1.5 per conversation), inserted with the messages'
//   triggers off (session_replication_role = replica, this transaction only):
//   those triggers keep the conversation's times and audit as messages arrive one
//   by one, and the conversation rows above already carry those times. The
//   webhook bench measures that path.
import type { Db } from '../../supabase/local/db.ts';

export interface SeededAccount {
  accountId: string;
  /** The admin's public.users id (the assignee of 'Mine'). */
  adminId: string;
}

export async function seedHelpdesk(db: Db, account: SeededAccount, count: number): Promise<void> {
  const contacts = Math.max(1, Math.ceil(count / 10));
  await db.query(
    `insert into public.contacts (account_id, name, email, phone)
     select $1::uuid, 'Customer ' || g, 'customer-' || g || '-' || left($1::text, 8) || '@example.test', '+1555' || (2000000 + g)
       from generate_series(1, $2::int) g`,
    [account.accountId, contacts],
  );
  await db.query(
    `with c as (select id, row_number() over (order by created_at, id) as n from public.contacts
                 where account_id = $1::uuid and email like 'customer-%')
     insert into public.conversations (account_id, contact_id, channel, subject, status, priority, tags, assignee_id,
                                       created_at, last_message_at, first_responded_at, resolved_at, unread)
     select $1::uuid, c.id, (array['email', 'email', 'sms', 'whatsapp'])[1 + g % 4], 'Case ' || g || ': order question',
            s.status, (array['low', 'normal', 'high', 'urgent'])[1 + g % 4],
            case when g % 5000 = 0 then '{vip,legal}'::text[] when g % 10 = 0 then '{vip}'::text[] else '{}'::text[] end,
            case when g % 4 = 0 then $3::uuid end,
            now() - g * interval '2 minutes', now() - g * interval '2 minutes' + interval '1 minute',
            case when g % 2 = 0 then now() - g * interval '2 minutes' + interval '1 minute' end,
            case when s.status = 'resolved' then now() - g * interval '2 minutes' + interval '1 minute' end,
            g % 3 = 0
       from generate_series(1, $2::int) g
       join c on c.n = 1 + (g - 1) % $4::int
       cross join lateral (select case when g % 20 < 12 then 'open' when g % 20 < 15 then 'pending' else 'resolved' end as status) s`,
    [account.accountId, count, account.adminId, contacts],
  );
  await db.transaction(async (tx) => {
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(
      `insert into public.messages (account_id, conversation_id, direction, body, sender_name, sender_email, created_at)
       select v.account_id, v.id, 'inbound', 'Where is my order? (' || v.subject || ')', c.name, c.email, v.created_at
         from public.conversations v join public.contacts c on c.id = v.contact_id
        where v.account_id = $1::uuid`,
      [account.accountId],
    );
    await tx.query(
      `insert into public.messages (account_id, conversation_id, direction, body, author_id, delivery_status, sent_at, created_at)
       select v.account_id, v.id, 'outbound', 'It left our warehouse this morning.', $2::uuid, 'sent', v.first_responded_at, v.first_responded_at
         from public.conversations v
        where v.account_id = $1::uuid and v.first_responded_at is not null`,
      [account.accountId, account.adminId],
    );
  });
}
