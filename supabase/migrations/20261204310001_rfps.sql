-- Bids of the RFP module (docs/product-guide.md, /rfp; ../shared/modules.md § rfp): the responses an account
-- prepares to tenders and requests for proposal. The New RFP Response fields of spec §3 (title, company,
-- contact_email, value, deadline, proposal, additional_notes), a status through the pipeline (Active,
-- Submitted, Under Review, Won, Lost, Closed), a go/no-go decision with its reasons, and an owner.
-- Staff read; admins and members write; clients, suppliers and anyone else see nothing (decision 012).
-- A search function over trigram indexes that lead with the account (decision 037), and the cards' summary.

create table public.rfps (
  id uuid primary key default gen_random_uuid(),
  -- The app writes without reading the account first: the caller's, unless the service role says otherwise.
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  title text not null check (length(btrim(title)) between 1 and 200),
  company text not null check (length(btrim(company)) between 1 and 200),
  contact_email text not null check (length(contact_email) between 3 and 254 and contact_email like '%_@_%'),
  -- Integer cents, in the currency beside it (the New dialog's is USD; a pursued notice brings its own).
  value bigint not null check (value between 0 and 100000000000000),
  currency text not null default 'USD' check (currency in ('USD', 'EUR', 'GBP')),
  deadline date not null,
  proposal text not null check (length(btrim(proposal)) between 1 and 10000),
  additional_notes text check (length(additional_notes) <= 5000),
  status text not null default 'Active'
    check (status in ('Active', 'Submitted', 'Under Review', 'Won', 'Lost', 'Closed')),
  -- Go / no-go: null until decided; the reasons say why (kept beside the decision, audited with it).
  decision text check (decision in ('go', 'no_go')),
  decision_reasons text check (length(decision_reasons) <= 2000),
  owner_id uuid,
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, account_id),
  foreign key (owner_id, account_id) references public.users (id, account_id) on delete set null (owner_id),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
-- The list's order, its status filter, the cards' deadlines, and its search (account first).
create index rfps_account_id_created_at_idx on public.rfps (account_id, created_at desc, id desc);
create index rfps_account_id_status_created_at_idx on public.rfps (account_id, status, created_at desc, id desc);
create index rfps_account_id_deadline_idx on public.rfps (account_id, deadline);
create index rfps_created_by_idx on public.rfps (created_by);
create index rfps_owner_id_idx on public.rfps (owner_id);
create index rfps_account_title_trgm_idx on public.rfps using gin (account_id, title extensions.gin_trgm_ops);
create index rfps_account_company_trgm_idx on public.rfps using gin (account_id, company extensions.gin_trgm_ops);

create trigger rfps_set_updated_at before update on public.rfps
  for each row execute function private.set_updated_at();

-- Row-level security ----------------------------------------------------------

alter table public.rfps enable row level security;
revoke all on public.rfps from anon;
revoke insert, update, delete, truncate on public.rfps from authenticated;
-- What a person may type.
grant insert (account_id, title, company, contact_email, value, currency, deadline, proposal, additional_notes,
              status, decision, decision_reasons, owner_id) on public.rfps to authenticated;
grant update (title, company, contact_email, value, currency, deadline, proposal, additional_notes,
              status, decision, decision_reasons, owner_id) on public.rfps to authenticated;
grant delete on public.rfps to authenticated;

create policy "staff read their account's rfps" on public.rfps
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add rfps" on public.rfps
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers update rfps" on public.rfps
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
create policy "business writers delete rfps" on public.rfps
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

-- Audit rows ------------------------------------------------------------------

-- A status change and a go/no-go decision are moments of their own on the record page's timeline.
create function private.audit_rfp() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_changes record;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, 'rfp_created', 'rfp', new.id, null, to_jsonb(new));
  elsif tg_op = 'DELETE' then
    perform private.write_audit(old.account_id, 'rfp_deleted', 'rfp', old.id, to_jsonb(old), null);
  else
    if new.status is distinct from old.status then
      perform private.write_audit(new.account_id, 'rfp_' || replace(lower(new.status), ' ', '_'), 'rfp', new.id,
                                  jsonb_build_object('status', old.status),
                                  jsonb_build_object('status', new.status, 'title', new.title));
    end if;
    if new.decision is distinct from old.decision or new.decision_reasons is distinct from old.decision_reasons then
      perform private.write_audit(new.account_id, 'rfp_decided', 'rfp', new.id,
                                  jsonb_build_object('decision', old.decision, 'decision_reasons', old.decision_reasons),
                                  jsonb_build_object('decision', new.decision, 'decision_reasons', new.decision_reasons, 'title', new.title));
    end if;
    select * into v_changes
      from private.changed_values(to_jsonb(old) - 'status' - 'decision' - 'decision_reasons',
                                  to_jsonb(new) - 'status' - 'decision' - 'decision_reasons');
    if v_changes.new_values - 'updated_at' <> '{}'::jsonb then
      perform private.write_audit(new.account_id, 'rfp_updated', 'rfp', new.id, v_changes.old_values, v_changes.new_values);
    end if;
  end if;
  return null;
end;
$$;
revoke all on function private.audit_rfp() from public;
create trigger rfps_audit after insert or update or delete on public.rfps
  for each row execute function private.audit_rfp();

insert into private.record_types (type, table_name, name_sql, snapshot_key, has_history) values
  ('rfp', 'public.rfps', $$r.title$$, 'title', true);

-- Search (decision 037) --------------------------------------------------------

-- The caller's bids whose title or company contains p_query; states the select policy itself.
create function public.search_rfps(p_query text)
returns setof public.rfps
language plpgsql stable
security definer
set search_path = ''
set enable_seqscan = off
as $$
declare
  v_account uuid := public.current_account_id();
  v_pattern text := private.contains_pattern(p_query);
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query execute $sql$
    select x.* from public.rfps x where x.account_id = $1 and x.title ilike $2
    union
    select x.* from public.rfps x where x.account_id = $1 and x.company ilike $2
  $sql$ using v_account, v_pattern;
end;
$$;
revoke all on function public.search_rfps(text) from public, anon;
grant execute on function public.search_rfps(text) to authenticated;

-- The cards (security invoker: the caller's policy decides) ---------------------

-- Per currency (no figure sums two currencies): the open bids (Active, Submitted, Under Review) and their
-- value, those due within 7 days of p_today, and the won and lost of the last 12 months for the win rate.
create function public.rfp_totals(p_today date)
returns table (currency text, open_count integer, open_value bigint, due_this_week integer, won_count integer, lost_count integer)
language sql stable
security invoker
set search_path = ''
as $$
  select r.currency,
         (count(*) filter (where r.status in ('Active', 'Submitted', 'Under Review')))::integer,
         coalesce(sum(r.value) filter (where r.status in ('Active', 'Submitted', 'Under Review')), 0)::bigint,
         (count(*) filter (where r.status in ('Active', 'Submitted', 'Under Review')
                             and r.deadline between p_today and p_today + 7))::integer,
         (count(*) filter (where r.status = 'Won' and r.updated_at >= p_today - interval '12 months'))::integer,
         (count(*) filter (where r.status = 'Lost' and r.updated_at >= p_today - interval '12 months'))::integer
    from public.rfps r
   where r.account_id = public.current_account_id()
   group by r.currency
   order by r.currency
$$;
revoke all on function public.rfp_totals(date) from public, anon;
grant execute on function public.rfp_totals(date) to authenticated;
