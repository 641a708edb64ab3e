-- One writer of an invoice from a quote (decision 087; decision 080 left a copy).
-- "Convert to invoice" (public.convert_quote_to_invoice: a signed-in writer,
-- their account) and the automations' create_invoice (the runner, for the
-- automation's account, in the run's transaction) wrote the same inserts
-- twice. private.invoice_from_quote writes them once, for the account and the
-- actor its caller names; each caller finds and locks the quote itself (its
-- own "not found", as before). Behaviour unchanged: the same checks in the
-- same order, the same rows. The signed check, convert's own until now, is
-- the writer's; an automation's quote is always signed (quote_accepted is
-- emitted by the signing, and a signed quote's status never changes).
-- Redefined from their latest definitions: convert_quote_to_invoice of
-- 20261126700001_invoices.sql, automation_perform of
-- 20261205400001_automation_retries_and_actions.sql.

-- The writer: the caller has locked p_quote (for update) and checked it is the
-- account's. A second conversion names the invoice the quote became.
create function private.invoice_from_quote(p_account_id uuid, p_actor uuid, p_quote public.quotes)
returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_contact public.contacts;
  v_existing public.invoices;
  v_invoice public.invoices;
begin
  if p_quote.id is null or p_quote.account_id is distinct from p_account_id then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  select * into v_existing from public.invoices i where i.quote_id = p_quote.id;
  if found then
    raise exception 'Already converted to %', v_existing.invoice_number
      using errcode = '23505', detail = v_existing.id::text, hint = v_existing.invoice_number;
  end if;
  if p_quote.status <> 'signed' then
    raise exception 'Only a signed quote can be converted to an invoice' using errcode = '22023';
  end if;
  select * into v_contact from public.contacts c where c.id = p_quote.contact_id;
  if v_contact.id is null and p_quote.signer_email is null then
    raise exception 'The quote has no client to invoice' using errcode = '22023';
  end if;

  insert into public.invoices (account_id, contact_id, quote_id, created_by, client_name, client_email, currency,
                               tax_rate, discount, due_date, notes)
  values (p_account_id, v_contact.id, p_quote.id, p_actor,
          coalesce(v_contact.name, p_quote.signer_name, p_quote.signer_email),
          lower(coalesce(v_contact.email, p_quote.signer_email)), p_quote.currency, p_quote.tax_rate, p_quote.discount,
          (now() at time zone 'UTC')::date + 30, p_quote.notes)
  returning id into v_invoice.id;
  insert into public.invoice_items (invoice_id, description, qty, unit_price, total, position)
  select v_invoice.id, qi.description, qi.qty, qi.unit_price, 0,
         (row_number() over (order by qi.position, qi.created_at, qi.id) - 1)::integer
    from public.quote_items qi where qi.quote_id = p_quote.id;
  -- Read back: the invoices' own triggers numbered and totalled it.
  select * into v_invoice from public.invoices i where i.id = v_invoice.id;
  return v_invoice;
end;
$$;
revoke all on function private.invoice_from_quote(uuid, uuid, public.quotes) from public;

-- "Convert to invoice": a signed quote becomes a draft invoice with its items,
-- rates and contact, once. A second try names the invoice it became.
create or replace function public.convert_quote_to_invoice(p_quote_id uuid) returns public.invoices
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account_id uuid := private.invoice_writer_account();
  v_quote public.quotes;
begin
  -- Locked: two conversions of one quote queue here; the second sees the first's invoice.
  select * into v_quote from public.quotes q where q.id = p_quote_id and q.account_id = v_account_id for update;
  if not found then
    raise exception 'Quote not found' using errcode = 'P0002';
  end if;
  return private.invoice_from_quote(v_account_id, public.current_user_id(), v_quote);
end;
$$;

-- The action, as in 20261205400001 but create_invoice through the writer.
create or replace function private.automation_perform(p_automation public.automations, p_run_id uuid, p_event public.events)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_settings jsonb := p_automation.action_settings;
  v_payload jsonb := coalesce(p_event.payload, '{}'::jsonb);
  v_task_id uuid;
  v_template public.templates;
  v_to text;
  v_job uuid;
  v_rows integer;
  v_quote public.quotes;
  v_invoice public.invoices;
  v_recipient uuid;
begin
  case p_automation.action_kind
  when 'assign_task' then
    insert into public.tasks (account_id, title, assignee_id, resource_type, resource_id, automation_run_id, created_by)
    values (p_automation.account_id, left(private.automation_render(v_settings ->> 'title', v_payload), 200),
            (v_settings ->> 'assignee_id')::uuid, p_event.resource_type, p_event.resource_id, p_run_id, null)
    returning id into v_task_id;
    return jsonb_build_object('task_id', v_task_id);
  when 'update_status' then
    if p_event.resource_type = 'leads' then
      if (v_settings ->> 'status') not in ('new', 'qualified', 'contacted', 'lost') then
        raise exception 'A lead cannot have the status %', v_settings ->> 'status' using errcode = '22023';
      end if;
      update public.leads set status = v_settings ->> 'status'
       where id = p_event.resource_id and account_id = p_automation.account_id;
      get diagnostics v_rows = row_count;
      if v_rows = 0 then
        raise exception 'The lead no longer exists' using errcode = 'P0002';
      end if;
      return jsonb_build_object('resource_type', 'leads', 'resource_id', p_event.resource_id, 'status', v_settings ->> 'status');
    end if;
    raise exception 'Update status does not apply to %', coalesce(p_event.resource_type, 'a run without an event') using errcode = '22023';
  when 'send_email' then
    select * into v_template from public.templates t
     where t.id = (v_settings ->> 'template_id')::uuid and t.account_id = p_automation.account_id;
    if not found then
      raise exception 'The template no longer exists' using errcode = 'P0002';
    end if;
    -- The event's contact: a lead's or client's email, a supplier's, a message's sender.
    v_to := case when v_settings ->> 'recipient' = 'event_contact'
                 then coalesce(v_payload ->> 'email', v_payload ->> 'supplier_email', v_payload ->> 'from')
                 else v_settings ->> 'recipient' end;
    if v_to is null or v_to !~ '^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$' or v_to ~ '[[:cntrl:]]' or length(v_to) > 320 then
      raise exception 'The event has no contact address to mail' using errcode = '22023';
    end if;
    v_job := private.enqueue_job('mail.send', p_automation.account_id,
      jsonb_build_object('to', v_to,
                         'subject', regexp_replace(private.automation_render(coalesce(v_template.subject, v_template.name), v_payload), '[[:cntrl:]]', ' ', 'g'),
                         'text', private.automation_render(v_template.content, v_payload)),
      'automation:' || p_run_id::text, p_automation.id);
    return jsonb_build_object('mail_job_id', v_job, 'to', v_to);
  when 'create_invoice' then
    if p_event.resource_type is distinct from 'quotes' or p_event.resource_id is null then
      raise exception 'Create invoice needs an accepted quote' using errcode = '22023';
    end if;
    -- Locked as convert_quote_to_invoice locks it: a conversion by hand meanwhile queues behind.
    select * into v_quote from public.quotes q
     where q.id = p_event.resource_id and q.account_id = p_automation.account_id for update;
    if not found then
      raise exception 'The quote no longer exists' using errcode = 'P0002';
    end if;
    -- The one writer, for the automation's account, its creator as the invoice's author.
    v_invoice := private.invoice_from_quote(p_automation.account_id, p_automation.created_by, v_quote);
    return jsonb_build_object('invoice_id', v_invoice.id, 'invoice_number', v_invoice.invoice_number, 'quote_id', v_quote.id);
  when 'generate_report' then
    v_recipient := coalesce((v_settings ->> 'assignee_id')::uuid, p_automation.created_by);
    if v_recipient is null then
      raise exception 'The automation has no one to mail the report to' using errcode = '22023';
    end if;
    v_job := private.enqueue_job('analytics.export_report', p_automation.account_id,
      jsonb_build_object('report_type', v_settings ->> 'report_type',
                         'format', coalesce(v_settings ->> 'format', 'pdf'),
                         'date_range', coalesce(v_settings ->> 'date_range', 'last_30_days'),
                         'from', null, 'to', null,
                         'include_charts', coalesce((v_settings ->> 'include_charts')::boolean, true),
                         'include_summary', coalesce((v_settings ->> 'include_summary')::boolean, true),
                         'recipient_user_id', v_recipient),
      'automation:' || p_run_id::text, p_automation.id);
    return jsonb_build_object('report_job_id', v_job, 'recipient_user_id', v_recipient);
  else
    raise exception '% is not performed by this engine', p_automation.action_kind using errcode = '0A000';
  end case;
end;
$$;
