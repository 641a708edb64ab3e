-- Nothing a user typed reaches a mail header with a control character in it (issue 30, item 2): the tables of
-- issue 30's time refuse them in every name, reason and address that can reach one, and the one mail path refuses
-- CR/LF in any header and encodes every subject. Tables added since lacked the same checks (found by the issue
-- 30 audit): an RFP's title (its deadline reminder's subject), a saved tender search's name (its alert and digest
-- subjects), an email template's name and subject, a purchase order's supplier name and address (its mail's
-- recipient). A control character there made the mail fail at the mail path instead of the form refusing it.
-- Rows written before are cleaned first (each run of control characters becomes one space), so the checks hold
-- on kept data too.

update public.rfps set title = coalesce(nullif(btrim(regexp_replace(title, '[\x01-\x1f\x7f]+', ' ', 'g')), ''), 'Untitled')
 where title ~ '[\x01-\x1f\x7f]';
alter table public.rfps add constraint rfps_title_no_control_chars check (title !~ '[\x01-\x1f\x7f]');

update public.tender_searches set name = coalesce(nullif(btrim(regexp_replace(name, '[\x01-\x1f\x7f]+', ' ', 'g')), ''), 'Untitled')
 where name ~ '[\x01-\x1f\x7f]';
alter table public.tender_searches add constraint tender_searches_name_no_control_chars check (name !~ '[\x01-\x1f\x7f]');

update public.templates set name = coalesce(nullif(btrim(regexp_replace(name, '[\x01-\x1f\x7f]+', ' ', 'g')), ''), 'Untitled')
 where name ~ '[\x01-\x1f\x7f]';
update public.templates set subject = btrim(regexp_replace(subject, '[\x01-\x1f\x7f]+', ' ', 'g'))
 where subject ~ '[\x01-\x1f\x7f]';
alter table public.templates add constraint templates_name_no_control_chars check (name !~ '[\x01-\x1f\x7f]');
alter table public.templates add constraint templates_subject_no_control_chars check (subject !~ '[\x01-\x1f\x7f]');

update public.purchase_orders set supplier_name = coalesce(nullif(btrim(regexp_replace(supplier_name, '[\x01-\x1f\x7f]+', ' ', 'g')), ''), 'Supplier')
 where supplier_name ~ '[\x01-\x1f\x7f]';
update public.purchase_orders set supplier_email = null where supplier_email ~ '[\x01-\x1f\x7f]';
alter table public.purchase_orders add constraint purchase_orders_supplier_name_no_control_chars check (supplier_name !~ '[\x01-\x1f\x7f]');
alter table public.purchase_orders add constraint purchase_orders_supplier_email_no_control_chars check (supplier_email !~ '[\x01-\x1f\x7f]');
