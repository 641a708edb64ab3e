-- Audit rows written before 20261124300001/3 may hold what the log must not:
-- credentials the old redaction missed (smtp_pass, private_key, nested keys)
-- and whole records of any size (a 1 MB note). The log is append-only, so
-- this one correction is made here, as the table's owner, with the guard
-- lifted for the statement and put back at once: secrets are redacted, large
-- values replaced by their length and hash, as new rows are written.
alter table public.audit_logs disable trigger audit_logs_append_only;

update public.audit_logs l
   set old_values = private.cap_audit_snapshot(
         case when l.resource_type = 'integration' then private.redact_secrets(l.old_values) else l.old_values end),
       new_values = private.cap_audit_snapshot(
         case when l.resource_type = 'integration' then private.redact_secrets(l.new_values) else l.new_values end)
 where l.old_values is distinct from private.cap_audit_snapshot(
         case when l.resource_type = 'integration' then private.redact_secrets(l.old_values) else l.old_values end)
    or l.new_values is distinct from private.cap_audit_snapshot(
         case when l.resource_type = 'integration' then private.redact_secrets(l.new_values) else l.new_values end);

alter table public.audit_logs enable trigger audit_logs_append_only;
