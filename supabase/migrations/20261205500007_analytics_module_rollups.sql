-- The module sections of /analytics (issue 40): helpdesk first response,
-- logistics on-time delivery, compliance coverage and overdue reviews, at a
-- cost that stays flat (decision 081).
--  - First response: the conversation rollups also count, per UTC day of
--    the conversation, those answered and the seconds to their first answer
--    (conversations.first_responded_at, set by the helpdesk's first reply).
--  - On-time delivery: private.shipment_day_stats, per UTC day of delivery,
--    the shipments delivered, those with an estimated date and those
--    delivered by the end of that date in the account's timezone (as it was
--    at delivery). Edges from the rows through a new (account_id,
--    delivered_at) index.
--  - Compliance is a state, not a period: coverage from
--    private.compliance_stats, overdue reviews counted from the
--    (account_id, next_review_date) index, up to 1,000.

alter table private.conversation_day_stats
  add column responded_count bigint not null default 0,
  add column response_seconds numeric not null default 0;
alter table private.conversation_month_stats
  add column responded_count bigint not null default 0,
  add column response_seconds numeric not null default 0;

create or replace function private.roll_conversation_month_stats() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into private.conversation_month_stats as m (account_id, month, conversation_count, responded_count, response_seconds)
  values (new.account_id, date_trunc('month', new.day)::date,
          new.conversation_count - case when tg_op = 'UPDATE' then old.conversation_count else 0 end,
          new.responded_count - case when tg_op = 'UPDATE' then old.responded_count else 0 end,
          new.response_seconds - case when tg_op = 'UPDATE' then old.response_seconds else 0 end)
  on conflict (account_id, month) do update
    set conversation_count = m.conversation_count + excluded.conversation_count,
        responded_count = m.responded_count + excluded.responded_count,
        response_seconds = m.response_seconds + excluded.response_seconds;
  return null;
end;
$$;

create or replace function private.roll_conversation_day_stats() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE'
     and (old.account_id, old.created_at, old.first_responded_at) is not distinct from (new.account_id, new.created_at, new.first_responded_at) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    update private.conversation_day_stats s
       set conversation_count = s.conversation_count - 1,
           responded_count = s.responded_count - case when old.first_responded_at is not null then 1 else 0 end,
           response_seconds = s.response_seconds - coalesce(extract(epoch from old.first_responded_at - old.created_at), 0)
     where s.account_id = old.account_id and s.day = (old.created_at at time zone 'UTC')::date;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.conversation_day_stats as s (account_id, day, conversation_count, responded_count, response_seconds)
    values (new.account_id, (new.created_at at time zone 'UTC')::date, 1,
            case when new.first_responded_at is not null then 1 else 0 end,
            coalesce(extract(epoch from new.first_responded_at - new.created_at), 0))
    on conflict (account_id, day) do update
      set conversation_count = s.conversation_count + 1,
          responded_count = s.responded_count + excluded.responded_count,
          response_seconds = s.response_seconds + excluded.response_seconds;
  end if;
  return null;
end;
$$;
drop trigger conversations_roll_day_stats on public.conversations;
create trigger conversations_roll_day_stats after insert or delete or update of account_id, created_at, first_responded_at
  on public.conversations for each row execute function private.roll_conversation_day_stats();

-- The answers already there (the month rows follow through their trigger).
update private.conversation_day_stats s
   set responded_count = x.n, response_seconds = x.secs
  from (select c.account_id, (c.created_at at time zone 'UTC')::date as day, count(*) as n,
               sum(extract(epoch from c.first_responded_at - c.created_at)) as secs
          from public.conversations c where c.first_responded_at is not null group by 1, 2) x
 where s.account_id = x.account_id and s.day = x.day;

create index shipments_account_delivered_idx on public.shipments (account_id, delivered_at) where delivered_at is not null;

create table private.shipment_day_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  day date not null,
  delivered_count bigint not null default 0,
  with_estimate_count bigint not null default 0,
  on_time_count bigint not null default 0,
  primary key (account_id, day)
);
alter table private.shipment_day_stats enable row level security;
revoke all on private.shipment_day_stats from public, anon, authenticated, service_role;

-- Whether a delivered shipment came by the end of its estimated day, in the account's timezone.
create or replace function private.shipment_on_time(p_account uuid, p_delivered_at timestamptz, p_estimate date) returns boolean
language sql stable security definer set search_path = '' as $$
  select p_estimate is not null and p_delivered_at is not null
     and (p_delivered_at at time zone coalesce((select a.timezone from public.accounts a where a.id = p_account), 'UTC'))::date <= p_estimate
$$;

create or replace function private.roll_shipment_day_stats() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE'
     and (old.account_id, old.delivered_at, old.estimated_delivery) is not distinct from (new.account_id, new.delivered_at, new.estimated_delivery) then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.delivered_at is not null then
    update private.shipment_day_stats s
       set delivered_count = s.delivered_count - 1,
           with_estimate_count = s.with_estimate_count - case when old.estimated_delivery is not null then 1 else 0 end,
           on_time_count = s.on_time_count - case when private.shipment_on_time(old.account_id, old.delivered_at, old.estimated_delivery) then 1 else 0 end
     where s.account_id = old.account_id and s.day = (old.delivered_at at time zone 'UTC')::date;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.delivered_at is not null then
    insert into private.shipment_day_stats as s (account_id, day, delivered_count, with_estimate_count, on_time_count)
    values (new.account_id, (new.delivered_at at time zone 'UTC')::date, 1,
            case when new.estimated_delivery is not null then 1 else 0 end,
            case when private.shipment_on_time(new.account_id, new.delivered_at, new.estimated_delivery) then 1 else 0 end)
    on conflict (account_id, day) do update
      set delivered_count = s.delivered_count + 1,
          with_estimate_count = s.with_estimate_count + excluded.with_estimate_count,
          on_time_count = s.on_time_count + excluded.on_time_count;
  end if;
  return null;
end;
$$;
create trigger shipments_roll_day_stats after insert or delete or update of account_id, delivered_at, estimated_delivery
  on public.shipments for each row execute function private.roll_shipment_day_stats();
revoke all on function private.roll_shipment_day_stats(), private.shipment_on_time(uuid, timestamptz, date)
  from public, anon, authenticated, service_role;

insert into private.shipment_day_stats (account_id, day, delivered_count, with_estimate_count, on_time_count)
select sh.account_id, (sh.delivered_at at time zone 'UTC')::date, count(*), count(sh.estimated_delivery),
       count(*) filter (where private.shipment_on_time(sh.account_id, sh.delivered_at, sh.estimated_delivery))
  from public.shipments sh where sh.delivered_at is not null group by 1, 2;
