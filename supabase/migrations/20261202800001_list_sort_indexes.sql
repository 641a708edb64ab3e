-- The record table's sortable columns (issue 32, decision 053): a list sorts
-- only by a column with an index that leads with the account and ends with
-- the id, so a sorted page is read from the index in order (forward for
-- ascending, backward for descending) and costs the same at 100,000 rows as
-- at 10. The app allows ?sort= only for the columns listed here (and
-- created_at, whose account-first indexes already exist or are added here).

create index leads_account_id_name_id_idx on public.leads (account_id, name, id);
create index leads_account_id_company_id_idx on public.leads (account_id, company, id);

create index contacts_account_id_name_id_idx on public.contacts (account_id, name, id);
create index contacts_account_id_company_id_idx on public.contacts (account_id, company, id);

create index quotes_account_id_created_at_id_idx on public.quotes (account_id, created_at, id);
create index quotes_account_id_quote_number_id_idx on public.quotes (account_id, quote_number, id);
create index quotes_account_id_total_id_idx on public.quotes (account_id, total, id);
create index quotes_account_id_expires_at_id_idx on public.quotes (account_id, expires_at, id);

create index invoices_account_id_invoice_number_id_idx on public.invoices (account_id, invoice_number, id);
create index invoices_account_id_client_name_id_idx on public.invoices (account_id, client_name, id);
create index invoices_account_id_total_id_idx on public.invoices (account_id, total, id);
create index invoices_account_id_due_date_id_idx on public.invoices (account_id, due_date, id);

create index bills_account_id_supplier_name_id_idx on public.bills (account_id, supplier_name, id);
create index bills_account_id_total_id_idx on public.bills (account_id, total, id);
create index bills_account_id_due_date_id_idx on public.bills (account_id, due_date, id);

create index documents_account_id_title_id_idx on public.documents (account_id, title, id);

create index templates_account_id_created_at_id_idx on public.templates (account_id, created_at, id);
create index templates_account_id_name_id_idx on public.templates (account_id, name, id);

create index users_account_id_created_at_id_idx on public.users (account_id, created_at, id);
create index users_account_id_email_id_idx on public.users (account_id, email, id);
