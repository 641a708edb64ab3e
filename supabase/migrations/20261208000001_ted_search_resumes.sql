-- A TED search that stopped at its cap (5 pages or 20 s a run, decision 092) with pages still bringing new
-- notices resumes there at the next run, once the newest pages bring nothing new: before, the next run stopped
-- at its first page with nothing new and the older notices past the cap were never read.
-- ted_resume_page is the page the next run continues from (TED's page-number mode serves 150 pages of 100);
-- only the runner sets it, through record_tender_fetch; a changed query, URL or format clears it.

alter table public.tender_sources add column ted_resume_page integer
  constraint tender_sources_ted_resume_page_check check (ted_resume_page between 2 and 150);

create or replace function private.audit_tender_setting()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_type text := case tg_table_name when 'tender_sources' then 'tender_source' else 'tender_search' end;
  v_changes record;
  v_ignored text[] := array['etag', 'last_modified', 'last_error', 'failures', 'last_fetched_at', 'next_fetch_at', 'updated_at', 'ted_resume_page'];
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, v_type || '_created', v_type, new.id, null, to_jsonb(new) - v_ignored);
  elsif tg_op = 'DELETE' then
    if exists (select 1 from public.accounts a where a.id = old.account_id) then
      perform private.write_audit(old.account_id, v_type || '_deleted', v_type, old.id, to_jsonb(old) - v_ignored, null);
    end if;
  else
    select * into v_changes from private.changed_values(to_jsonb(old) - v_ignored, to_jsonb(new) - v_ignored);
    if v_changes.new_values <> '{}'::jsonb then
      perform private.write_audit(new.account_id, v_type || '_updated', v_type, new.id, v_changes.old_values,
                                  v_changes.new_values || jsonb_build_object('name', new.name));
    end if;
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_tender_setting() from public, anon, authenticated, service_role;

create or replace function private.tender_source_reset()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if new.url is distinct from old.url or new.format is distinct from old.format or new.query is distinct from old.query then
    new.etag := null;
    new.last_modified := null;
    new.last_error := null;
    new.failures := 0;
    new.next_fetch_at := now();
    new.ted_resume_page := null;
  end if;
  return new;
end;
$function$;
revoke all on function private.tender_source_reset() from public, anon, authenticated, service_role;
grant execute on function private.tender_source_reset() to public;

drop function public.record_tender_fetch(uuid, timestamp with time zone, text, text, text);

-- p_resume_page: where the next run continues (null: nothing left behind). A failed run keeps the page it had.
create function public.record_tender_fetch(p_source uuid, p_now timestamp with time zone, p_etag text default null, p_last_modified text default null,
                                           p_error text default null, p_resume_page integer default null)
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  update public.tender_sources s
     set etag = case when p_error is null then coalesce(left(p_etag, 500), s.etag) else s.etag end,
         last_modified = case when p_error is null then coalesce(left(p_last_modified, 100), s.last_modified) else s.last_modified end,
         last_error = left(p_error, 1000),
         failures = case when p_error is null then 0 else s.failures + 1 end,
         last_fetched_at = p_now,
         next_fetch_at = case when p_error is null then p_now + interval '1 hour'
                              else p_now + least(interval '15 minutes' * power(2, s.failures), interval '1 hour') end,
         ted_resume_page = case when p_error is null then case when p_resume_page between 2 and 150 then p_resume_page end
                                else s.ted_resume_page end
   where s.id = p_source
$function$;
revoke all on function public.record_tender_fetch(uuid, timestamp with time zone, text, text, text, integer) from public, anon, authenticated, service_role;
grant execute on function public.record_tender_fetch(uuid, timestamp with time zone, text, text, text, integer) to service_role;
