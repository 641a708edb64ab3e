-- The leads and clients lists in the order they are shown, and by status, as
-- the quotes, invoices and documents lists already are: newest first with the
-- id breaking ties, so a page is read from the index without sorting (rows
-- written in one transaction, an import, share their time and were sorted
-- whole before a page came out), and a status filter (with its exact count)
-- reads only that status's rows instead of walking the account's whole list
-- (leads filtered by a rare status: 23.8 ms at 100,000 leads on PGlite,
-- bench/README.md "Business screens").
create index leads_account_id_created_at_id_idx on public.leads (account_id, created_at desc, id desc);
create index leads_account_id_status_created_at_idx on public.leads (account_id, status, created_at desc, id desc);
drop index public.leads_account_id_created_at_idx;
create index contacts_account_id_created_at_id_idx on public.contacts (account_id, created_at desc, id desc);
create index contacts_account_id_status_created_at_idx on public.contacts (account_id, status, created_at desc, id desc);
drop index public.contacts_account_id_created_at_idx;
