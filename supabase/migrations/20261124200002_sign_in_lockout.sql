-- Password sign-in lockout per address, for the app's sign-in (the short,
-- per-IP window is Cloudflare's Rate Limiting binding in front of it). A wrong
-- password is recorded here; 10 of them within 15 minutes lock the address
-- until the oldest of those 10 is 15 minutes old. Every location of the Worker
-- sees the same count, which the binding (counting per location) cannot give.
--
-- The table lives outside the API's schema, with row-level security on and
-- no grants: it is read and written only by the three functions below.
-- Addresses are kept as sha256 hashes, so the table is no list of who tried.

create table private.failed_sign_ins (
  id bigint generated always as identity primary key,
  email_hash text not null,
  failed_at timestamptz not null default now()
);
create index failed_sign_ins_email_hash_failed_at_idx on private.failed_sign_ins (email_hash, failed_at desc);
create index failed_sign_ins_failed_at_idx on private.failed_sign_ins (failed_at);
alter table private.failed_sign_ins enable row level security;
revoke all on private.failed_sign_ins from public, anon, authenticated;

create or replace function private.sign_in_email_hash(p_email text) returns text
language sql immutable
set search_path = ''
as $$
  select encode(extensions.digest(lower(btrim(p_email)), 'sha256'), 'hex')
$$;

-- Seconds the address stays locked (0: not locked).
create or replace function private.sign_in_lockout_seconds(p_email_hash text) returns integer
language sql stable
set search_path = ''
as $$
  select coalesce(
    (select greatest(0, ceil(extract(epoch from (f.failed_at + interval '15 minutes' - now()))))::integer
       from private.failed_sign_ins f
      where f.email_hash = p_email_hash and f.failed_at > now() - interval '15 minutes'
      order by f.failed_at desc
      offset 9 limit 1),
    0)
$$;

create or replace function public.sign_in_lockout(p_email text) returns integer
language sql stable
security definer
set search_path = ''
as $$
  select case when length(p_email) > 254 then 0
              else private.sign_in_lockout_seconds(private.sign_in_email_hash(p_email)) end
$$;

-- Records one wrong password and answers the lockout the address now has.
create or replace function public.record_failed_sign_in(p_email text) returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_hash text;
begin
  if p_email is null or length(p_email) > 254 then
    return 0;
  end if;
  v_hash := private.sign_in_email_hash(p_email);
  -- What no longer counts is dropped as new failures come in, so the table stays small.
  delete from private.failed_sign_ins where failed_at < now() - interval '15 minutes';
  insert into private.failed_sign_ins (email_hash) values (v_hash);
  return private.sign_in_lockout_seconds(v_hash);
end;
$$;

-- The signed-in user's own address starts again from zero (after a successful
-- sign-in). Only the address in the caller's verified token can be cleared.
create or replace function public.clear_failed_sign_ins() returns void
language sql
security definer
set search_path = ''
as $$
  delete from private.failed_sign_ins
   where email_hash = private.sign_in_email_hash(coalesce(auth.jwt() ->> 'email', ''))
     and auth.uid() is not null
$$;

-- Supabase's default privileges grant new functions to anon and authenticated
-- by name: revoke from them too, then grant exactly what each is for.
revoke all on function public.sign_in_lockout(text) from public, anon, authenticated;
revoke all on function public.record_failed_sign_in(text) from public, anon, authenticated;
revoke all on function public.clear_failed_sign_ins() from public, anon, authenticated;
grant execute on function public.sign_in_lockout(text) to anon, authenticated, service_role;
grant execute on function public.record_failed_sign_in(text) to anon, authenticated, service_role;
grant execute on function public.clear_failed_sign_ins() to authenticated, service_role;
