-- The schemas and extensions the rest builds on, and the helpers every feature calls: who is
-- calling, request details, rate limits, currencies, audit plumbing.
--
-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a
-- new migration together; tests/db/schema-files.test.ts holds that they agree.

set check_function_bodies = false;

-- What only security definer functions touch: no API role may even look in (the
-- functions run as their owner). Its tables still have row-level security, so a
-- grant made here by mistake exposes nothing.
create schema if not exists private;

revoke all on schema private from public, anon, authenticated, service_role;

create extension if not exists btree_gin with schema extensions;

-- Trigram and btree_gin indexes: list searches from the account's own indexes (decision 037).
create extension if not exists pg_trgm with schema extensions;

-- ── private.rate_limit_counters ──

-- Hits per key in fixed windows (decision 041): a key over its limit is refused
-- until its window ends, never longer. Touched only by private.hit_rate_limit().
create table private.rate_limit_counters (
  key text not null,
  window_start timestamp with time zone not null,
  window_end timestamp with time zone not null,
  hits integer default 1 not null,
  constraint rate_limit_counters_pkey primary key (key, window_start)
);
alter table private.rate_limit_counters enable row level security;

create index rate_limit_counters_window_end_idx on private.rate_limit_counters using btree (window_end);

revoke all on table private.rate_limit_counters from public, anon, authenticated, service_role;

-- ── functions ──

create or replace function private.account_day(p_account_id uuid, p_at timestamp with time zone)
 returns date
 language sql
 stable security definer
 set search_path to ''
as $function$
  select (p_at at time zone coalesce((select a.timezone from public.accounts a where a.id = p_account_id), 'UTC'))::date
$function$;
revoke all on function private.account_day(p_account_id uuid, p_at timestamp with time zone) from public, anon, authenticated, service_role;

create or replace function private.amount_cents(p_value text)
 returns bigint
 language sql
 immutable
 set search_path to ''
as $function$
  select case when p_value ~ '^\d{1,12}(\.\d{1,2})?$' then round(p_value::numeric * 100)::bigint end
$function$;
revoke all on function private.amount_cents(p_value text) from public, anon, authenticated, service_role;

create or replace function private.any_keyword_query(p_keywords text[])
 returns tsquery
 language sql
 immutable
 set search_path to ''
as $function$
  select to_tsquery('simple', string_agg('(' || q || ')', ' | '))
    from (select (select string_agg(w || ':*', ' & ')
                    from (select w from regexp_split_to_table(lower(kw), '[^[:alnum:]]+') w where w <> '' limit 10) words) as q
            from unnest(p_keywords) kw) keyword
   where q is not null
$function$;
revoke all on function private.any_keyword_query(p_keywords text[]) from public, anon, authenticated, service_role;
grant execute on function private.any_keyword_query(p_keywords text[]) to public;

create or replace function private.caller()
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  identity text := coalesce(current_setting('request.jwt.claim.sub', true), '') || chr(31)
                || coalesce(current_setting('request.jwt.claim', true), '') || chr(31)
                || coalesce(current_setting('request.jwt.claims', true), '');
  claims jsonb;
  session_id text;
  live_user uuid;
  person record;
  answer text;
begin
  if current_setting('ops.caller_identity', true) = identity then
    return current_setting('ops.caller', true);
  end if;

  -- A token names its session; the caller counts as signed in only while it
  -- exists and has not passed its not_after. A token without one (minted by
  -- hand with the project's secret) is trusted on its signature.
  live_user := auth.uid();
  claims := auth.jwt();
  session_id := nullif(claims ->> 'session_id', '');
  if live_user is not null and session_id is not null then
    if session_id !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
       or not exists (select 1 from auth.sessions s
                       where s.id = session_id::uuid
                         and (s.not_after is null or s.not_after > now())) then
      live_user := null;
    end if;
  end if;

  -- Only an active users row speaks for the caller.
  select u.id, u.account_id, u.role into person
    from public.users u
   where u.auth_user_id = live_user and u.is_active;

  -- format() writes a null as an empty field, keeping the positions.
  answer := format('%s|%s|%s|%s', live_user, person.id, person.account_id, person.role);
  perform set_config('ops.caller', answer, true);
  perform set_config('ops.caller_identity', identity, true);
  return answer;
end;
$function$;
revoke all on function private.caller() from public, anon, authenticated, service_role;

create or replace function private.canonical_json(p_value jsonb)
 returns text
 language plpgsql
 immutable
 set search_path to ''
as $function$
begin
  return case jsonb_typeof(p_value)
    when 'object' then '{' || coalesce((
      select string_agg(to_jsonb(e.key)::text || ':' || private.canonical_json(e.value), ',' order by e.key collate "C")
        from jsonb_each(p_value) e), '') || '}'
    when 'array' then '[' || coalesce((
      select string_agg(private.canonical_json(e.value), ',' order by e.n)
        from jsonb_array_elements(p_value) with ordinality e(value, n)), '') || ']'
    else p_value::text
  end;
end;
$function$;
revoke all on function private.canonical_json(p_value jsonb) from public, anon, authenticated, service_role;

create or replace function private.contains_pattern(p_text text)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select '%' || replace(replace(replace(p_text, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$function$;
revoke all on function private.contains_pattern(p_text text) from public, anon, authenticated, service_role;

create or replace function private.hit_rate_limit(p_key text, p_limit integer, p_window interval)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_seconds double precision := extract(epoch from p_window);
  v_start timestamptz;
  v_hits integer;
begin
  if p_key is null or v_seconds is null or v_seconds <= 0 or p_limit is null then
    raise exception 'hit_rate_limit needs a key, a limit and a positive window' using errcode = '22023';
  end if;
  v_start := to_timestamp(floor(extract(epoch from now()) / v_seconds) * v_seconds);
  -- Ended windows go as new hits come (at most 100 rows a call: bounded work).
  delete from private.rate_limit_counters c
   where c.ctid in (select o.ctid from private.rate_limit_counters o where o.window_end < now() limit 100);
  insert into private.rate_limit_counters as c (key, window_start, window_end)
  values (left(p_key, 300), v_start, v_start + p_window)
  on conflict (key, window_start) do update set hits = c.hits + 1
  returning c.hits into v_hits;
  return v_hits <= p_limit;
end;
$function$;
revoke all on function private.hit_rate_limit(p_key text, p_limit integer, p_window interval) from public, anon, authenticated, service_role;

create or replace function private.is_end_user_request()
 returns boolean
 language sql
 stable
 set search_path to ''
as $function$
  select coalesce(auth.role(), '') in ('authenticated', 'anon')
$function$;
revoke all on function private.is_end_user_request() from public, anon, authenticated, service_role;
grant execute on function private.is_end_user_request() to public;

create or replace function private.jsonb_deep_merge(p_base jsonb, p_over jsonb)
 returns jsonb
 language sql
 immutable
 set search_path to ''
as $function$
  select coalesce(jsonb_object_agg(coalesce(b.key, o.key),
           case
             when jsonb_typeof(b.value) = 'object' and jsonb_typeof(o.value) = 'object'
               then private.jsonb_deep_merge(b.value, o.value)
             else coalesce(o.value, b.value)
           end), '{}'::jsonb)
    from jsonb_each(p_base) b
    full join jsonb_each(p_over) o on o.key = b.key
$function$;
revoke all on function private.jsonb_deep_merge(p_base jsonb, p_over jsonb) from public, anon, authenticated, service_role;

create or replace function private.new_link_token()
 returns text
 language sql
 set search_path to ''
as $function$
  select rtrim(translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/', '-_'), '=')
$function$;
revoke all on function private.new_link_token() from public, anon, authenticated, service_role;

create or replace function private.prefix_tsquery(p_text text)
 returns tsquery
 language plpgsql
 stable parallel safe
 set search_path to ''
as $function$
declare
  v_token record;
  v_word tsquery;
  v_piece tsquery;
  v_query tsquery;
  v_pieces int := 0;
begin
  for v_token in
    select t.alias, t.token, t.lexemes
      from pg_catalog.ts_debug('simple'::regconfig, left(coalesce(p_text, ''), 200)) t
  loop
    if v_token.alias = 'blank' then
      -- Whitespace ends a typed word; other punctuation ('INV/77') joins its pieces.
      if v_token.token ~ '\s' and v_word is not null then
        v_query := case when v_query is null then v_word else v_query && v_word end;
        v_word := null;
      end if;
      continue;
    end if;
    -- A hyphenated word comes whole and then in parts: the parts are what stand next to what follows.
    if v_token.alias in ('hword', 'asciihword', 'numhword') or v_token.lexemes is null
       or pg_catalog.cardinality(v_token.lexemes) = 0 or pg_catalog.strpos(v_token.lexemes[1], E'\\') > 0 then
      continue;
    end if;
    v_pieces := v_pieces + 1;
    exit when v_pieces > 16;
    v_piece := pg_catalog.format('%s:*', pg_catalog.quote_literal(v_token.lexemes[1]))::tsquery;
    if v_token.lexemes[1] ~ '^[0-9]' then
      v_piece := v_piece || pg_catalog.format('%s:*', pg_catalog.quote_literal('-' || v_token.lexemes[1]))::tsquery;
    end if;
    v_word := case when v_word is null then v_piece else v_word <-> v_piece end;
  end loop;
  if v_word is not null then
    v_query := case when v_query is null then v_word else v_query && v_word end;
  end if;
  return v_query;
end;
$function$;
revoke all on function private.prefix_tsquery(p_text text) from public, anon, authenticated, service_role;

create or replace function private.rate_limit_minutes_left(p_window interval)
 returns integer
 language sql
 stable
 set search_path to ''
as $function$
  select greatest(1, ceil((extract(epoch from p_window)
    - (extract(epoch from now())::numeric % extract(epoch from p_window)::numeric)) / 60)::integer)
$function$;
revoke all on function private.rate_limit_minutes_left(p_window interval) from public, anon, authenticated, service_role;

create or replace function private.request_client(out ip_address text, out user_agent text)
 returns record
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_header text := coalesce(private.request_header('x-opshub-client'), '');
begin
  if current_setting('audit.client_header', true) is distinct from v_header then
    select c.ip_address, c.user_agent into ip_address, user_agent from private.signed_request_client() c;
    perform set_config('audit.client_header', v_header, true),
            set_config('audit.client_ip', coalesce(ip_address, ''), true),
            set_config('audit.client_ua', coalesce(user_agent, ''), true);
    return;
  end if;
  ip_address := nullif(current_setting('audit.client_ip', true), '');
  user_agent := nullif(current_setting('audit.client_ua', true), '');
end;
$function$;
revoke all on function private.request_client(out ip_address text, out user_agent text) from public, anon, authenticated, service_role;

create or replace function private.request_header(p_name text)
 returns text
 language plpgsql
 stable
 set search_path to ''
as $function$
begin
  return nullif(current_setting('request.headers', true), '')::jsonb ->> p_name;
exception when others then
  return null;
end;
$function$;
revoke all on function private.request_header(p_name text) from public, anon, authenticated, service_role;
grant execute on function private.request_header(p_name text) to public;

create or replace function private.request_ip()
 returns text
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_client record;
  v_forwarded text;
begin
  select * into v_client from private.request_client();
  if v_client.ip_address is not null then
    return v_client.ip_address;
  end if;
  v_forwarded := private.request_header('x-forwarded-for');
  if v_forwarded is null then
    return null;
  end if;
  return nullif(btrim(regexp_replace(v_forwarded, '^.*,', '')), '');
end;
$function$;
revoke all on function private.request_ip() from public, anon, authenticated, service_role;

create or replace function private.set_updated_at()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  new.updated_at := now();
  return new;
end;
$function$;
revoke all on function private.set_updated_at() from public, anon, authenticated, service_role;
grant execute on function private.set_updated_at() to public;

create or replace function private.signed_request_client(out ip_address text, out user_agent text)
 returns setof record
 language plpgsql
 stable security definer
 set search_path to ''
as $function$
declare
  v_header text := private.request_header('x-opshub-client');
  v_secret text;
  v_parts text[];
  v_payload jsonb;
begin
  if v_header is null or length(v_header) > 4096 then
    return;
  end if;
  v_parts := string_to_array(v_header, '.');
  if cardinality(v_parts) <> 3 or v_parts[1] !~ '^[0-9]{1,12}$' then
    return;
  end if;
  -- Five minutes either way: a signed header is useless to whoever finds it later.
  if abs(extract(epoch from now()) - v_parts[1]::bigint) > 300 then
    return;
  end if;
  select k.secret into v_secret from private.audit_signing_key k;
  if v_secret is null
     or encode(extensions.hmac(v_parts[1] || '.' || v_parts[2], v_secret, 'sha256'), 'hex') <> lower(v_parts[3]) then
    return;
  end if;
  v_payload := convert_from(decode(v_parts[2], 'base64'), 'UTF8')::jsonb;
  ip_address := left(nullif(v_payload ->> 'ip', ''), 64);
  user_agent := left(nullif(v_payload ->> 'ua', ''), 512);
  return next;
exception when others then
  -- A malformed payload tells us nothing: no row, as for no header.
  return;
end;
$function$;
revoke all on function private.signed_request_client(out ip_address text, out user_agent text) from public, anon, authenticated, service_role;

create or replace function private.utc_iso(p_at timestamp with time zone)
 returns text
 language sql
 immutable
 set search_path to ''
as $function$
  select to_char(p_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$function$;
revoke all on function private.utc_iso(p_at timestamp with time zone) from public, anon, authenticated, service_role;

create or replace function public.currencies()
 returns table(code text, minor_units integer, name text)
 language sql
 immutable parallel safe
 set search_path to ''
as $function$
  values ('USD', 2, 'US dollar'),
         ('EUR', 2, 'Euro'),
         ('GBP', 2, 'Pound sterling'),
         ('CAD', 2, 'Canadian dollar'),
         ('AUD', 2, 'Australian dollar'),
         ('NZD', 2, 'New Zealand dollar'),
         ('CHF', 2, 'Swiss franc'),
         ('JPY', 0, 'Japanese yen'),
         ('CNY', 2, 'Chinese yuan'),
         ('HKD', 2, 'Hong Kong dollar'),
         ('SGD', 2, 'Singapore dollar'),
         ('INR', 2, 'Indian rupee'),
         ('AED', 2, 'UAE dirham'),
         ('SEK', 2, 'Swedish krona'),
         ('NOK', 2, 'Norwegian krone'),
         ('DKK', 2, 'Danish krone'),
         ('PLN', 2, 'Polish złoty'),
         ('CZK', 2, 'Czech koruna'),
         ('ZAR', 2, 'South African rand'),
         ('BRL', 2, 'Brazilian real'),
         ('MXN', 2, 'Mexican peso'),
         ('PEN', 2, 'Peruvian sol'),
         ('ARS', 2, 'Argentine peso'),
         ('CLP', 0, 'Chilean peso'),
         ('COP', 2, 'Colombian peso')
$function$;
revoke all on function public.currencies() from public, anon, authenticated, service_role;
grant execute on function public.currencies() to anon, authenticated, service_role, public;

create or replace function public.current_account_id()
 returns uuid
 language sql
 stable security definer
 set search_path to ''
as $function$
  select nullif(split_part(private.caller(), '|', 3), '')::uuid
$function$;
revoke all on function public.current_account_id() from public, anon, authenticated, service_role;
grant execute on function public.current_account_id() to authenticated, service_role;

create or replace function public.current_account_is_master()
 returns boolean
 language sql
 stable
 set search_path to ''
as $function$
  select public.is_master_account(public.current_account_id())
$function$;
revoke all on function public.current_account_is_master() from public, anon, authenticated, service_role;
grant execute on function public.current_account_is_master() to authenticated, service_role;

create or replace function public.current_profile()
 returns jsonb
 language sql
 stable security definer
 set search_path to ''
as $function$
  select jsonb_build_object(
           'signed_in', me.auth_user_id is not null,
           'profile', (
             select to_jsonb(u) || jsonb_build_object(
                      'account',
                      (select jsonb_build_object('name', a.name)
                         from public.accounts a
                        where a.id = u.account_id
                          and u.is_active
                          and u.role in ('admin', 'member', 'auditor')))
               from public.users u
              where u.auth_user_id = me.auth_user_id))
    from (select public.session_user_id() as auth_user_id) me
$function$;
revoke all on function public.current_profile() from public, anon, authenticated, service_role;
grant execute on function public.current_profile() to authenticated, service_role;

create or replace function public.current_user_id()
 returns uuid
 language sql
 stable security definer
 set search_path to ''
as $function$
  select nullif(split_part(private.caller(), '|', 2), '')::uuid
$function$;
revoke all on function public.current_user_id() from public, anon, authenticated, service_role;
grant execute on function public.current_user_id() to authenticated, service_role;

create or replace function public.current_user_role()
 returns text
 language sql
 stable security definer
 set search_path to ''
as $function$
  select nullif(split_part(private.caller(), '|', 4), '')
$function$;
revoke all on function public.current_user_role() from public, anon, authenticated, service_role;
grant execute on function public.current_user_role() to authenticated, service_role;

create or replace function public.fits_currency(p_hundredths bigint, p_code text)
 returns boolean
 language sql
 immutable parallel safe
 set search_path to ''
as $function$
  select p_hundredths is null
      or p_hundredths % (10 ^ (2 - coalesce((select c.minor_units from public.currencies() c where c.code = p_code), 2)))::bigint = 0
$function$;
revoke all on function public.fits_currency(p_hundredths bigint, p_code text) from public, anon, authenticated, service_role;
grant execute on function public.fits_currency(p_hundredths bigint, p_code text) to anon, authenticated, service_role, public;

create or replace function public.flag_unverified_sender(p_message_id uuid)
 returns boolean
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_message public.messages;
  v_domain text;
begin
  select * into v_message from public.messages m where m.id = p_message_id and m.direction = 'inbound';
  if not found then
    return false;
  end if;
  v_domain := split_part(lower(coalesce(v_message.sender_email, '')), '@', 2);
  if v_domain = '' or not (
       exists (select 1 from public.users u where u.account_id = v_message.account_id and split_part(lower(u.email), '@', 2) = v_domain)
    or exists (select 1 from public.integrations i where i.account_id = v_message.account_id
                and split_part(lower(coalesce(i.config ->> 'from_email', '')), '@', 2) = v_domain)) then
    return false;
  end if;
  update public.messages m set sender_unverified = true where m.id = v_message.id;
  return true;
end;
$function$;
revoke all on function public.flag_unverified_sender(p_message_id uuid) from public, anon, authenticated, service_role;
grant execute on function public.flag_unverified_sender(p_message_id uuid) to service_role;

create or replace function public.is_currency(p_code text)
 returns boolean
 language sql
 immutable parallel safe
 set search_path to ''
as $function$
  select exists (select 1 from public.currencies() c where c.code = p_code)
$function$;
revoke all on function public.is_currency(p_code text) from public, anon, authenticated, service_role;
grant execute on function public.is_currency(p_code text) to anon, authenticated, service_role, public;

create or replace function public.session_user_id()
 returns uuid
 language sql
 stable security definer
 set search_path to ''
as $function$
  select nullif(split_part(private.caller(), '|', 1), '')::uuid
$function$;
revoke all on function public.session_user_id() from public, anon, authenticated, service_role;
grant execute on function public.session_user_id() to authenticated, service_role;
