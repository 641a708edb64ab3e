-- Stands in for the app's migrations in the auth tests: a trigger that copies
-- sign-up metadata into a public table (and refuses one name), and one that
-- mirrors sign-ins, so the tests see what the project's triggers would.
create table if not exists public.auth_test_profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  first_name text,
  last_sign_in_at timestamptz
);
create or replace function public.auth_test_on_user_created() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.raw_user_meta_data ->> 'first_name' = 'Refused' then
    raise exception 'sign-ups named Refused are not allowed';
  end if;
  insert into public.auth_test_profiles (user_id, first_name) values (new.id, new.raw_user_meta_data ->> 'first_name');
  return new;
end $$;
create or replace function public.auth_test_on_sign_in() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.auth_test_profiles set last_sign_in_at = new.last_sign_in_at where user_id = new.id;
  return new;
end $$;
drop trigger if exists auth_test_on_user_created on auth.users;
create trigger auth_test_on_user_created after insert on auth.users
  for each row execute function public.auth_test_on_user_created();
drop trigger if exists auth_test_on_sign_in on auth.users;
create trigger auth_test_on_sign_in after update of last_sign_in_at on auth.users
  for each row execute function public.auth_test_on_sign_in();
