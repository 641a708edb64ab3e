-- The daily job announces each review due once (issue 37): an item created
-- already due is Action Required from its first moment, so "not yet Action
-- Required" could not tell the job which reviews were still to announce; the
-- occurrence now records when its review_due went out.

alter table public.compliance_occurrences add column announced_at timestamptz;
create index compliance_occurrences_unannounced_idx on public.compliance_occurrences (due_on) where status = 'open' and announced_at is null;

create or replace function public.compliance_daily(p_today date default current_date)
returns table (occurrence_id uuid, account_id uuid, item_id uuid, title text, due_on date, kind text, owner_email text)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row record;
begin
  -- Each review due is announced once (review_due), whatever the item's status already says.
  for v_row in
    update public.compliance_occurrences o set announced_at = now()
      from public.compliance_items i
     where i.id = o.item_id and o.status = 'open' and o.due_on <= p_today and o.announced_at is null
    returning o.id, o.account_id, o.item_id, o.due_on, i.title
  loop
    perform private.refresh_compliance_item(v_row.item_id);
    perform private.emit_event(v_row.account_id, 'review_due', 'compliance_items', v_row.item_id,
                               jsonb_build_object('occurrence_id', v_row.id, 'due_on', v_row.due_on, 'title', v_row.title));
  end loop;
  for v_row in select i.id from public.compliance_items i
                where not exists (select 1 from public.compliance_occurrences o
                                   where o.item_id = i.id and o.due_on > (date_trunc('year', p_today) + interval '1 year')::date)
  loop
    perform private.generate_compliance_occurrences(v_row.id);
  end loop;
  -- Expired evidence: one audit row per file, the day it expires or the first run after.
  for v_row in
    select e.* from public.evidence e
     where e.expires_on <= p_today
       and not exists (select 1 from public.audit_logs a where a.resource_id = e.item_id
                          and a.action = 'compliance_evidence_expired' and a.new_values ->> 'evidence_id' = e.id::text)
  loop
    perform private.write_audit(v_row.account_id, 'compliance_evidence_expired', 'compliance_item', v_row.item_id, null,
      jsonb_build_object('evidence_id', v_row.id, 'title', v_row.title, 'version', v_row.version, 'expires_on', v_row.expires_on));
  end loop;

  -- The reminders: marked sent here and queued as one mail job each (its key makes it once).
  for v_row in
    with before as (
      update public.compliance_occurrences o set reminded_before_at = now()
        from public.compliance_items i
       where i.id = o.item_id and o.status = 'open' and o.reminded_before_at is null
         and o.due_on = p_today + 7 and i.owner_id is not null
      returning o.id, o.account_id, o.item_id, i.title, o.due_on, 'before'::text as kind, i.owner_id
    ), on_day as (
      update public.compliance_occurrences o set reminded_on_day_at = now()
        from public.compliance_items i
       where i.id = o.item_id and o.status = 'open' and o.reminded_on_day_at is null
         and o.due_on = p_today and i.owner_id is not null
      returning o.id, o.account_id, o.item_id, i.title, o.due_on, 'on_day'::text as kind, i.owner_id
    )
    select r.id, r.account_id, r.item_id, r.title, r.due_on, r.kind, u.email
      from (select * from before union all select * from on_day) r
      join public.users u on u.id = r.owner_id
  loop
    perform private.enqueue_job('compliance_reminder', v_row.account_id,
      jsonb_build_object('occurrence_id', v_row.id, 'item_id', v_row.item_id, 'title', v_row.title, 'due_on', v_row.due_on,
                         'kind', v_row.kind, 'to', v_row.email),
      'compliance_reminder:' || v_row.id || ':' || v_row.kind, v_row.item_id);
    occurrence_id := v_row.id;
    account_id := v_row.account_id;
    item_id := v_row.item_id;
    title := v_row.title;
    due_on := v_row.due_on;
    kind := v_row.kind;
    owner_email := v_row.email;
    return next;
  end loop;
end;
$$;

revoke all on function public.compliance_daily(date) from public, anon, authenticated;
grant execute on function public.compliance_daily(date) to service_role;
