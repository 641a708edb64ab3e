-- The /compliance cards without reading every item (issue 37's bench: 100,000
-- items within 1.5x of a small account): the counts per status come from a
-- rollup kept by a trigger, as lead_stats does for leads; the next review date
-- is the first entry of the account's next-review index; the reviews due
-- within 30 days are counted up to 1,000 from that index (the card says
-- "1,000+" beyond).

create table private.compliance_stats (
  account_id uuid not null references public.accounts (id) on delete cascade,
  status text not null,
  item_count bigint not null default 0 check (item_count >= 0),
  primary key (account_id, status)
);

create function private.count_compliance_item() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update private.compliance_stats s set item_count = s.item_count - 1
     where s.account_id = old.account_id and s.status = old.status;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into private.compliance_stats as s (account_id, status, item_count) values (new.account_id, new.status, 1)
    on conflict (account_id, status) do update set item_count = s.item_count + 1;
  end if;
  return null;
end;
$$;
revoke all on function private.count_compliance_item() from public, anon, authenticated;
create trigger compliance_items_count after insert or delete on public.compliance_items
  for each row execute function private.count_compliance_item();
create trigger compliance_items_count_status after update of status on public.compliance_items
  for each row when (old.status is distinct from new.status) execute function private.count_compliance_item();

insert into private.compliance_stats (account_id, status, item_count)
select i.account_id, i.status, count(*) from public.compliance_items i group by i.account_id, i.status;

create or replace function public.compliance_summary()
returns table (total integer, compliant integer, in_progress integer, action_required integer, non_compliant integer,
               due_30_days integer, next_due date)
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or not public.is_account_staff() then
    return query select 0, 0, 0, 0, 0, 0, null::date;
    return;
  end if;
  return query
  select coalesce(sum(s.item_count), 0)::integer,
         coalesce(sum(s.item_count) filter (where s.status = 'Compliant'), 0)::integer,
         coalesce(sum(s.item_count) filter (where s.status = 'In Progress'), 0)::integer,
         coalesce(sum(s.item_count) filter (where s.status = 'Action Required'), 0)::integer,
         coalesce(sum(s.item_count) filter (where s.status = 'Non-Compliant'), 0)::integer,
         (select count(*) from (select 1 from public.compliance_items i
                                 where i.account_id = v_account and i.next_review_date <= current_date + 30
                                 limit 1000) d)::integer,
         (select i.next_review_date from public.compliance_items i
           where i.account_id = v_account and i.next_review_date >= current_date
           order by i.next_review_date limit 1)
    from private.compliance_stats s
   where s.account_id = v_account;
end;
$$;
revoke all on function public.compliance_summary() from public, anon;
grant execute on function public.compliance_summary() to authenticated;

-- The list's other filters (category, risk level, owner) read the account's
-- newest first from an index of their own, as the status filter does.
create index compliance_items_account_category_created_idx on public.compliance_items (account_id, category, created_at desc, id desc);
create index compliance_items_account_risk_created_idx on public.compliance_items (account_id, risk_level, created_at desc, id desc);
create index compliance_items_account_owner_created_idx on public.compliance_items (account_id, owner_id, created_at desc, id desc);
