-- Values that reach a mail header hold no control characters (issue 30, item
-- 2; decision 039). A signer's name with CR/LF ("Bob\r\nBcc: x@evil.example")
-- went raw into the subject of the "accepted" mail; the mail path now refuses
-- such a header too, and here the database refuses the value itself, for every
-- writer (the public quote page, a REST call, a function, the service role).
--
-- Names, addresses and company names: no control character at all. A decline
-- reason is a multi-line text written in a textarea and never a header: line
-- breaks and tabs stay allowed, the other control characters do not.
-- contacts.email (the To of quote mail) also gets a format check.
--
-- Kept data: each constraint is added NOT VALID and then validated. Where an
-- existing row breaks it (only kept data can: the seed passes), it stays NOT
-- VALID rather than rewriting that row (a signed quote's signer name is
-- evidence): it still holds for every insert and every update, so the row
-- must be corrected when next edited, and the mail path refuses the value if
-- it is ever sent. A notice names the constraint left unvalidated.

do $$
declare
  v record;
  -- Single-line values: no C0 control character and no DEL.
  v_line constant text := '[\x01-\x1f\x7f]';
  -- Multi-line text: tab, LF and CR allowed.
  v_text constant text := '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]';
begin
  for v in
    select * from (values
      ('accounts', 'name', v_line),
      ('accounts', 'billing_email', v_line),
      ('users', 'email', v_line),
      ('users', 'first_name', v_line),
      ('users', 'last_name', v_line),
      ('user_invitations', 'email', v_line),
      ('user_invitations', 'first_name', v_line),
      ('user_invitations', 'last_name', v_line),
      ('contacts', 'name', v_line),
      ('contacts', 'email', v_line),
      ('contacts', 'company', v_line),
      ('quotes', 'signer_name', v_line),
      ('quotes', 'signer_email', v_line),
      ('quotes', 'decline_reason', v_text),
      ('invoices', 'client_name', v_line),
      ('invoices', 'client_email', v_line),
      ('integrations', 'name', v_line)
    ) as t (table_name, column_name, pattern)
  loop
    execute format('alter table public.%I add constraint %I check (%I !~ %L) not valid',
      v.table_name, v.table_name || '_' || v.column_name || '_no_control_chars', v.column_name, v.pattern);
  end loop;

  -- The From address an SMTP integration sends as (its config, not secret).
  alter table public.integrations add constraint integrations_from_email_no_control_chars
    check (coalesce(config ->> 'from_email', '') !~ '[\x01-\x1f\x7f]') not valid;

  -- An address a mail can be sent to: one @, a dot in the domain, no spaces,
  -- brackets or separators (the To header and RCPT TO take it as it is).
  alter table public.contacts add constraint contacts_email_format
    check (email ~ '^[^][[:space:]@<>(),;:"\\]+@[^][[:space:]@<>(),;:"\\]+\.[^][[:space:]@<>(),;:"\\.]+$') not valid;

  for v in
    select c.conrelid::regclass::text as table_name, c.conname
      from pg_constraint c
     where c.connamespace = 'public'::regnamespace
       and not c.convalidated
       and (c.conname like '%\_no\_control\_chars' or c.conname = 'contacts_email_format')
  loop
    begin
      execute format('alter table %s validate constraint %I', v.table_name, v.conname);
    exception when check_violation then
      raise notice '% keeps rows that break %: it holds for new writes; correct those rows', v.table_name, v.conname;
    end;
  end loop;
end;
$$;
