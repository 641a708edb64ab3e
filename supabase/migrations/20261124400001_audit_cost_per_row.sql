-- Kept, empty, so that a local database made before its content was folded into
-- 20261124300003_audit_truth.sql (which now makes the audit trigger cheap per
-- row itself) still finds every version it recorded: a missing file would stop
-- it starting ("made by a newer version"). On a new database it does nothing.
select 1;
