-- An account with compliance items can be deleted again (issue 37, decision
-- 078; found by its test): the item's and the mapping's delete triggers wrote an
-- audit row for an account already gone (audit_logs' foreign key refused it, so
-- the account's deletion failed). They now write nothing then, as
-- private.audit_record_deleted does.

create or replace function private.audit_compliance()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_changes record;
  v_item uuid;
begin
  if tg_table_name = 'compliance_items' then
    if tg_op = 'INSERT' then
      perform private.write_audit(new.account_id, 'compliance_item_created', 'compliance_item', new.id, null, to_jsonb(new));
    elsif tg_op = 'DELETE' then
      -- A delete cascading from the account's own deletion has nowhere to log.
      if exists (select 1 from public.accounts a where a.id = old.account_id) then
        perform private.write_audit(old.account_id, 'compliance_item_deleted', 'compliance_item', old.id, to_jsonb(old), null);
      end if;
    else
      select * into v_changes from private.changed_values(to_jsonb(old), to_jsonb(new));
      -- evidence_expired follows from the evidence, whose own rows are in the trail.
      if v_changes.new_values - 'updated_at' - 'evidence_expired' <> '{}'::jsonb then
        perform private.write_audit(new.account_id,
          case when new.status is distinct from old.status then 'compliance_item_status_changed' else 'compliance_item_updated' end,
          'compliance_item', new.id, v_changes.old_values, v_changes.new_values);
      end if;
    end if;
  elsif tg_table_name = 'compliance_reviews' then
    perform private.write_audit(new.account_id, 'compliance_review_recorded', 'compliance_item', new.item_id, null,
      jsonb_build_object('review_id', new.id, 'reviewed_on', new.reviewed_on, 'outcome', new.outcome, 'notes', new.notes,
                         'supersedes_id', new.supersedes_id));
  elsif tg_table_name = 'evidence' then
    perform private.write_audit(new.account_id, 'compliance_evidence_added', 'compliance_item', new.item_id, null,
      jsonb_build_object('evidence_id', new.id, 'title', new.title, 'version', new.version, 'file_name', new.file_name,
                         'sha256', new.sha256, 'effective_on', new.effective_on, 'expires_on', new.expires_on));
  end if;
  return null;
end;
$function$;
revoke all on function private.audit_compliance() from public, anon, authenticated, service_role;

create or replace function private.audit_compliance_mapping()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_row public.compliance_item_controls := case when tg_op = 'DELETE' then old else new end;
  v_label text;
begin
  -- A delete cascading from the account's own deletion has nowhere to log.
  if not exists (select 1 from public.accounts a where a.id = v_row.account_id) then
    return null;
  end if;
  select c.label into v_label from public.compliance_controls c where c.id = v_row.control_id;
  perform private.write_audit(v_row.account_id,
    case when tg_op = 'DELETE' then 'compliance_control_unmapped' else 'compliance_control_mapped' end,
    'compliance_item', v_row.item_id, null, jsonb_build_object('control_id', v_row.control_id, 'label', v_label));
  return null;
end;
$function$;
revoke all on function private.audit_compliance_mapping() from public, anon, authenticated, service_role;
