-- Tables of the private schema are reached only by security definer functions
-- (their owner's rights bypass row-level security), and no API role has usage
-- of the schema. Row-level security on, with no policy, makes a grant made
-- there by mistake expose nothing all the same, as on every table of public.
alter table private.quote_number_counters enable row level security;
alter table private.integration_secrets enable row level security;
alter table private.audit_signing_key enable row level security;
