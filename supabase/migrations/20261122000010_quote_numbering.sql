-- Quote numbers: each account has its own counter per year, Q-2026-0001,
-- assigned in the database so two concurrent inserts never share a number.

create table private.quote_number_counters (
  account_id uuid not null references public.accounts (id) on delete cascade,
  year integer not null,
  last_value integer not null,
  primary key (account_id, year)
);

create or replace function private.assign_quote_number() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_year integer := extract(year from coalesce(new.created_at, now()) at time zone 'UTC')::integer;
  v_next integer;
begin
  -- The upsert takes the counter row's lock: concurrent quotes of one
  -- account queue here, other accounts are unaffected.
  insert into private.quote_number_counters as c (account_id, year, last_value)
  values (new.account_id, v_year, 1)
  on conflict (account_id, year) do update set last_value = c.last_value + 1
  returning c.last_value into v_next;

  new.quote_number := 'Q-' || v_year || '-' || lpad(v_next::text, greatest(4, length(v_next::text)), '0');
  return new;
end;
$$;

create trigger quotes_assign_number before insert on public.quotes
  for each row execute function private.assign_quote_number();
