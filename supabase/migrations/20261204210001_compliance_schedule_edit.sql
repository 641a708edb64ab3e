-- A compliance item's schedule can be changed after creation (issue 37, second
-- pass; decision 064, 2026-11-26): writers may update its frequency, custom
-- interval and first review date. The reviews due that are still open are then
-- generated again from the new schedule; the occurrences closed by a review
-- (past reviews) stay as they were, and no open one is left at or before the
-- last reviewed date. The change itself is in the trail (compliance_items_audit
-- writes compliance_item_updated with the old and new values).

grant update (frequency, interval_months, first_review_date) on public.compliance_items to authenticated;

create function private.compliance_schedule_changed() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_last_done date;
begin
  delete from public.compliance_occurrences o where o.item_id = new.id and o.status = 'open';
  -- The generator keeps dates from next_review_date on: restart it from the new first date.
  update public.compliance_items i set next_review_date = new.first_review_date where i.id = new.id;
  perform private.generate_compliance_occurrences(new.id);
  select max(o.due_on) into v_last_done from public.compliance_occurrences o where o.item_id = new.id and o.status = 'done';
  if v_last_done is not null then
    delete from public.compliance_occurrences o where o.item_id = new.id and o.status = 'open' and o.due_on <= v_last_done;
  end if;
  perform private.refresh_compliance_item(new.id);
  return null;
end;
$$;
revoke all on function private.compliance_schedule_changed() from public;

create trigger compliance_items_schedule_changed after update of frequency, interval_months, first_review_date
  on public.compliance_items
  for each row
  when (old.frequency is distinct from new.frequency or old.interval_months is distinct from new.interval_months
        or old.first_review_date is distinct from new.first_review_date)
  execute function private.compliance_schedule_changed();
