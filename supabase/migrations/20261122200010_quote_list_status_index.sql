-- The Recent Quotes list filtered by status (/quotes?status=) as a short index
-- scan however many quotes an account has. Without it the filtered page walks
-- quotes_account_id_created_at_idx and drops every other status, so a rare
-- status (a few 'expired' among 100,000 quotes) reads the whole account to
-- find 21 rows. Keys in the list's order (created_at desc, id desc): no sort.
create index quotes_account_id_status_created_at_idx
  on public.quotes (account_id, status, created_at desc, id desc);
