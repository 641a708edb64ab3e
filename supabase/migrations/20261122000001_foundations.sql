-- Foundations shared by every later migration: a private schema for internals
-- that the REST API must never expose, and the updated_at bookkeeping trigger.

-- PostgREST exposes only `public`; trigger functions, counters and other
-- internals live in `private`, which the API roles cannot even see.
create schema if not exists private;
revoke all on schema private from public;

-- Keeps updated_at current on every update, whatever the client sends.
create or replace function private.set_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- True when the statement runs on behalf of an end user (a JWT with role
-- authenticated or anon). Service-role requests, GoTrue's own connection,
-- migrations and the seed are trusted and skip the per-user guards.
create or replace function private.is_end_user_request() returns boolean
language sql stable
set search_path = ''
as $$
  select coalesce(auth.role(), '') in ('authenticated', 'anon')
$$;
