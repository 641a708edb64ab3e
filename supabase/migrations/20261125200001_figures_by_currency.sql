-- Quote figures that never add one currency to another, and a conversion
-- rate over the quotes really sent (docs/product-guide.md, Quotes and
-- Dashboard; decision 018).
--
-- quotes.sent_at: when a quote first left draft. An expired quote may have
-- expired as a draft or after it was sent; sent_at tells them apart.
-- quote_stats gains the currency and whether the quotes were sent to its key,
-- so every sum of money is grouped by currency and the rate is signed ÷ sent
-- over the same small rollup (the cost stays flat in the number of quotes).

alter table public.quotes add column sent_at timestamptz;

-- Stamped here, never by the API roles (they cannot update the column, and a
-- draft they insert has none).
create or replace function private.stamp_quote_sent() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status = 'draft' then
    new.sent_at := null;
  elsif new.sent_at is null and new.status <> 'expired' then
    -- A row written already past draft (the seed, server code) was sent when it was made.
    new.sent_at := case when tg_op = 'INSERT' then new.created_at else now() end;
  end if;
  return new;
end;
$$;
revoke all on function private.stamp_quote_sent() from public;

create trigger quotes_stamp_sent before insert or update of status, sent_at on public.quotes
  for each row execute function private.stamp_quote_sent();

-- Quotes that exist already: past draft means sent, as of creation (the
-- moment is unknown); an expired one was sent if its audit trail says so.
-- Bookkeeping, not a change anyone made: no audit rows, no updated_at.
alter table public.quotes disable trigger user;
update public.quotes q
   set sent_at = q.created_at
 where q.status in ('sent', 'viewed', 'signed', 'declined');
update public.quotes q
   set sent_at = sent.at
  from (select l.resource_id, min(l.created_at) as at
          from public.audit_logs l
         where l.resource_type = 'quote' and l.action = 'quote_updated' and l.new_values ->> 'status' = 'sent'
         group by l.resource_id) sent
 where q.status = 'expired' and q.id = sent.resource_id;
alter table public.quotes enable trigger user;

-- The rollup, by currency and sent as well.
alter table public.quote_stats add column currency text not null default 'USD';
alter table public.quote_stats add column sent boolean not null default false;
alter table public.quote_stats drop constraint quote_stats_pkey;
delete from public.quote_stats;
alter table public.quote_stats add primary key (account_id, status, month, currency, sent);
alter table public.quote_stats alter column currency drop default;
alter table public.quote_stats alter column sent drop default;

create or replace function private.quote_stats_after_insert() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.quote_stats as s (account_id, status, month, currency, sent, quote_count, quote_value)
  select n.account_id, n.status, private.quote_month(n.created_at), n.currency, n.sent_at is not null,
         count(*), sum(n.total::numeric)
    from inserted n
   group by 1, 2, 3, 4, 5
   order by 1, 2, 3, 4, 5
  on conflict (account_id, status, month, currency, sent) do update
    set quote_count = s.quote_count + excluded.quote_count,
        quote_value = s.quote_value + excluded.quote_value;
  return null;
end;
$$;

create or replace function private.quote_stats_after_delete() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.quote_stats s
     set quote_count = s.quote_count - d.quote_count,
         quote_value = s.quote_value - d.quote_value
    from (select o.account_id, o.status, private.quote_month(o.created_at) as month, o.currency,
                 o.sent_at is not null as sent, count(*) as quote_count, sum(o.total::numeric) as quote_value
            from removed o
           group by 1, 2, 3, 4, 5) d
   where s.account_id = d.account_id and s.status = d.status and s.month = d.month
     and s.currency = d.currency and s.sent = d.sent;
  return null;
end;
$$;

create or replace function private.quote_stats_after_update() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with changes as (
    select o.account_id, o.status, private.quote_month(o.created_at) as month, o.currency,
           o.sent_at is not null as sent, -1 as n, -o.total::numeric as v
      from removed o
    union all
    select n.account_id, n.status, private.quote_month(n.created_at), n.currency,
           n.sent_at is not null, 1, n.total::numeric
      from inserted n
  ), summed as (
    select account_id, status, month, currency, sent, sum(n)::bigint as quote_count, sum(v) as quote_value
      from changes group by 1, 2, 3, 4, 5
     having sum(n) <> 0 or sum(v) <> 0
  )
  insert into public.quote_stats as s (account_id, status, month, currency, sent, quote_count, quote_value)
  select account_id, status, month, currency, sent, quote_count, quote_value from summed order by 1, 2, 3, 4, 5
  on conflict (account_id, status, month, currency, sent) do update
    set quote_count = s.quote_count + excluded.quote_count,
        quote_value = s.quote_value + excluded.quote_value;
  return null;
end;
$$;

insert into public.quote_stats (account_id, status, month, currency, sent, quote_count, quote_value)
select account_id, status, private.quote_month(created_at), currency, sent_at is not null, count(*), sum(total::numeric)
  from public.quotes
 group by 1, 2, 3, 4, 5;

-- The quote list's cards: the count, the sums of money by currency
-- ([{currency, count, value, average}] in cents, the average rounded, the
-- currency with the most quotes first), and the quotes
-- sent and signed for the conversion rate (signed ÷ sent: a quote counts as
-- sent once it has left draft, whatever became of it since; a signed quote
-- was always sent).
drop function public.quote_summary();
create function public.quote_summary()
returns table (total_count bigint, sent_count bigint, signed_count bigint, by_currency jsonb)
language sql stable
security invoker
set search_path = ''
as $$
  with mine as (
    select s.* from public.quote_stats s where s.account_id = public.current_account_id()
  )
  select coalesce((select sum(m.quote_count) from mine m), 0)::bigint,
         coalesce((select sum(m.quote_count) from mine m where m.sent), 0)::bigint,
         coalesce((select sum(m.quote_count) from mine m where m.status = 'signed'), 0)::bigint,
         coalesce((
           select jsonb_agg(jsonb_build_object('currency', g.currency, 'count', g.n, 'value', g.v, 'average', round(g.v / g.n))
                            order by g.n desc, g.currency)
             from (select s.currency, sum(s.quote_count) as n, sum(s.quote_value) as v
                     from mine s group by s.currency having sum(s.quote_count) > 0) g), '[]'::jsonb)
$$;
revoke all on function public.quote_summary() from public, anon;
grant execute on function public.quote_summary() to authenticated;

-- The previous sign-in, kept when a new one happens: a user whose
-- previous_login_at is null is in their first session ('Welcome,' on the
-- dashboard; after the next sign-in, 'Welcome back,').
alter table public.users add column previous_login_at timestamptz;

create or replace function private.sync_auth_user_changes() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.users u
     set previous_login_at = case when new.last_sign_in_at is distinct from old.last_sign_in_at
                                  then u.last_login_at else u.previous_login_at end,
         last_login_at = case when new.last_sign_in_at is distinct from old.last_sign_in_at
                              then new.last_sign_in_at else u.last_login_at end,
         email = case when new.email is distinct from old.email and new.email is not null
                      then lower(new.email) else u.email end
   where u.auth_user_id = new.id;
  return null;
end;
$$;

-- The dashboard as before, with money grouped by currency
-- (quote_pipeline and this_month.quote_value are lists of sums), the
-- account's module subscriptions (modules), and whether this is the user's
-- first session (first_visit).
create or replace function public.dashboard_overview() returns jsonb
language sql stable
security invoker
set search_path = ''
as $$
  with me as (
    select public.current_account_id() as account_id
  ), month as (
    select date_trunc('month', now() at time zone 'UTC')::date as start
  ), stats as (
    select s.* from public.quote_stats s, me where s.account_id = me.account_id
  )
  select jsonb_build_object(
    'active_leads', (select count(*) from public.leads l, me
                      where l.account_id = me.account_id and l.status <> 'lost'),
    'total_leads', (select count(*) from public.leads l, me where l.account_id = me.account_id),
    'quote_count', (select coalesce(sum(s.quote_count), 0) from stats s),
    'quote_pipeline', coalesce((
           select jsonb_agg(jsonb_build_object('currency', g.currency, 'count', g.n, 'value', g.v, 'average', round(g.v / g.n))
                            order by g.n desc, g.currency)
             from (select s.currency, sum(s.quote_count) as n, sum(s.quote_value) as v
                     from stats s where s.status in ('draft', 'sent', 'viewed') group by s.currency having sum(s.quote_count) > 0) g), '[]'::jsonb),
    'monthly_revenue', (select coalesce(sum(am.monthly_price_applied), 0) from public.account_modules am, me
                         where am.account_id = me.account_id and am.status = 'active'),
    'active_modules', (select count(*) from public.account_modules am, me
                        where am.account_id = me.account_id and am.status = 'active'),
    'modules', coalesce((
       select jsonb_agg(jsonb_build_object('key', m.key, 'name', m.name, 'status', am.status) order by m.name)
         from public.account_modules am
         cross join me
         join public.modules m on m.id = am.module_id
        where am.account_id = me.account_id and am.status <> 'cancelled'), '[]'::jsonb),
    'account_status', (select a.subscription_status from public.accounts a, me where a.id = me.account_id),
    'trial_ends_at', (select a.trial_ends_at from public.accounts a, me where a.id = me.account_id),
    'first_visit', coalesce((select u.previous_login_at is null from public.users u
                              where u.auth_user_id = (select auth.uid())), false),
    'this_month', jsonb_build_object(
      'quotes', (select coalesce(sum(s.quote_count), 0) from stats s, month where s.month = month.start),
      'quote_value', coalesce((
           select jsonb_agg(jsonb_build_object('currency', g.currency, 'count', g.n, 'value', g.v, 'average', round(g.v / g.n))
                            order by g.n desc, g.currency)
             from (select s.currency, sum(s.quote_count) as n, sum(s.quote_value) as v
                     from stats s, month where s.month = month.start group by s.currency having sum(s.quote_count) > 0) g), '[]'::jsonb),
      'leads', (select count(*) from public.leads l, me, month
                 where l.account_id = me.account_id and l.created_at >= (month.start::timestamp at time zone 'UTC'))
    ),
    'recent_quotes', coalesce((
      select jsonb_agg(r order by r.created_at desc) from (
        select q.id, q.quote_number, q.total, q.currency, q.status, q.created_at, c.name as contact_name
          from public.quotes q
          cross join me
          left join public.contacts c on c.id = q.contact_id
         where q.account_id = me.account_id
         order by q.created_at desc, q.id desc
         limit 3) r), '[]'::jsonb),
    'recent_leads', coalesce((
      select jsonb_agg(r order by r.created_at desc) from (
        select l.id, l.name, l.company, l.status, l.created_at
          from public.leads l, me
         where l.account_id = me.account_id
         order by l.created_at desc, l.id desc
         limit 2) r), '[]'::jsonb),
    'getting_started', jsonb_build_object(
      'has_lead', exists (select 1 from public.leads l, me where l.account_id = me.account_id),
      'has_quote', exists (select 1 from public.quotes q, me where q.account_id = me.account_id),
      'has_client', exists (select 1 from public.contacts c, me where c.account_id = me.account_id)
    )
  )
$$;
revoke all on function public.dashboard_overview() from public, anon;
grant execute on function public.dashboard_overview() to authenticated;

-- A plain sign-up names its account after the company given in the sign-up
-- metadata (company_name; the form requires it). A sign-up without one (the
-- auth API called directly) keeps the old name, "First Last's Account".
create or replace function private.create_account_for_new_user(p_auth_user_id uuid, p_email text, p_meta jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_first_name text := nullif(btrim(p_meta ->> 'first_name'), '');
  v_last_name text := nullif(btrim(p_meta ->> 'last_name'), '');
  -- At most as long as the account name the settings screen accepts.
  v_company text := left(nullif(btrim(p_meta ->> 'company_name'), ''), 200);
  v_owner text := coalesce(nullif(concat_ws(' ', v_first_name, v_last_name), ''), split_part(p_email, '@', 1));
  v_account_id uuid;
begin
  insert into public.accounts (name, billing_email, subscription_status, trial_ends_at, default_currency, timezone)
  values (coalesce(v_company, v_owner || '''s Account'), lower(p_email), 'trial', now() + interval '14 days', 'USD', 'UTC')
  returning id into v_account_id;

  insert into public.users (account_id, auth_user_id, email, first_name, last_name, role)
  values (v_account_id, p_auth_user_id, lower(p_email), v_first_name, v_last_name, 'admin');
end;
$$;
