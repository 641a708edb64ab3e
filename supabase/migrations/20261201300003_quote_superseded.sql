-- A revised quote is superseded (issue 30, item 7).
--
-- Revising a sent quote made a new draft but left the original open: its
-- client could still sign it while the new version was being drafted. Now
-- revise_quote supersedes the original in the same transaction: its status
-- becomes `superseded` and `superseded_by` names the revision. The original's
-- link then answers only `superseded` (the page: 'This quote was replaced by
-- a newer version.'), with no quote shown and no PDF; it cannot be signed or
-- declined (only an open quote can: quote_link_state says superseded, not
-- open), nor converted (only a signed quote is), nor revised again (revise the
-- newest). The audit row quote_revised records the change of status.
--
-- If the revision is deleted while still a draft, `superseded_by` becomes null
-- (the foreign key) and the original may be revised again; it stays
-- superseded: its client is never offered an old version again.

alter table public.quotes drop constraint quotes_status_check;
alter table public.quotes add constraint quotes_status_check
  check (status in ('draft', 'sent', 'viewed', 'signed', 'declined', 'expired', 'superseded'));

alter table public.quotes add column superseded_by uuid;
alter table public.quotes add constraint quotes_superseded_by_account_fkey
  foreign key (superseded_by, account_id) references public.quotes (id, account_id) on delete set null (superseded_by);
create index quotes_superseded_by_idx on public.quotes (superseded_by) where superseded_by is not null;
alter table public.quotes add constraint quotes_superseded_has_status
  check (superseded_by is null or status = 'superseded');

-- The state a quote's link shows.
create or replace function private.quote_link_state(p_quote public.quotes) returns text
language sql stable
set search_path = ''
as $$
  select case
    when p_quote.status = 'signed' then 'signed'
    when p_quote.status = 'declined' then 'declined'
    when p_quote.status = 'expired' then 'expired'
    when p_quote.status = 'superseded' then 'superseded'
    when p_quote.status in ('sent', 'viewed') and p_quote.expires_at is not null and p_quote.expires_at <= now() then 'expired'
    when p_quote.status in ('sent', 'viewed') then 'open'
    else 'not_found'
  end
$$;

-- A superseded quote's link shows nothing of the old quote: its state and who
-- sent it. The answer is the same for open, accept and decline.
create or replace function private.quote_link_lookup(p_token text, out quote public.quotes, out state text, out answer jsonb)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
begin
  select * into v_found from private.quote_by_link(p_token);
  quote := v_found.quote;
  if v_found.limited then
    answer := jsonb_build_object('state', 'rate_limited');
  elsif quote.id is null then
    answer := jsonb_build_object('state', 'not_found');
  else
    state := private.quote_link_state(quote);
    if state = 'superseded' then
      answer := jsonb_build_object('state', 'superseded',
        'account_name', (select a.name from public.accounts a where a.id = quote.account_id));
    end if;
  end if;
end;
$$;
revoke all on function private.quote_link_lookup(text) from public;

-- No PDF for a superseded quote's link (nor for a draft's).
create or replace function public.quote_link_document(p_token text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
begin
  select * into v_found from private.quote_by_link(p_token);
  if v_found.limited then
    return jsonb_build_object('limited', true);
  end if;
  if (v_found.quote).id is null or private.quote_link_state(v_found.quote) in ('not_found', 'superseded') then
    return null;
  end if;
  return private.quote_document_json((v_found.quote).id);
end;
$$;

-- Revising: the new draft, and the original superseded by it in the same
-- transaction (the original's row lock, taken by quote_for_staff_writer, holds
-- off a concurrent accept until then; the accept then finds it superseded).
create or replace function public.revise_quote(p_quote_id uuid) returns public.quotes
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_original public.quotes := private.quote_for_staff_writer(p_quote_id);
  v_root text := regexp_replace(coalesce(v_original.quote_number, ''), '-R[0-9]+$', '');
  v_revision integer;
  v_expires_at timestamptz;
  v_draft public.quotes;
begin
  if v_original.status = 'superseded' and v_original.superseded_by is not null then
    raise exception 'This quote was replaced by a newer version; revise that one' using errcode = '22023';
  end if;
  if v_original.status not in ('sent', 'viewed', 'declined', 'expired', 'superseded') then
    raise exception '%', case v_original.status
      when 'signed' then 'A signed quote cannot be revised'
      else 'A draft quote is edited, not revised' end using errcode = '22023';
  end if;
  select coalesce(max(q.revision), 0) + 1 into v_revision
    from public.quotes q
   where q.account_id = v_original.account_id
     and (q.id = v_original.id
          or (v_root <> '' and regexp_replace(q.quote_number, '-R[0-9]+$', '') = v_root));
  -- The new draft runs as long as the original was given, counted from now.
  v_expires_at := now() + greatest(coalesce(v_original.expires_at - v_original.created_at, interval '30 days'), interval '1 day');
  insert into public.quotes (account_id, contact_id, created_by, currency, subtotal, total, expires_at, notes,
                             status, tax_rate, discount, revision_of, revision)
  values (v_original.account_id, v_original.contact_id, public.current_user_id(), v_original.currency,
          v_original.subtotal, v_original.subtotal, v_expires_at, v_original.notes,
          'draft', v_original.tax_rate, v_original.discount, v_original.id, v_revision)
  returning * into v_draft;
  insert into public.quote_items (quote_id, description, qty, unit_price, total, position)
  select v_draft.id, i.description, i.qty, i.unit_price, i.total,
         (row_number() over (order by i.position, i.created_at, i.id) - 1)::integer
    from public.quote_items i
   where i.quote_id = v_original.id;

  -- The original is superseded: its one audit row is quote_revised (below).
  perform set_config('opshub.quote_named_audit', 'on', true);
  update public.quotes q set status = 'superseded', superseded_by = v_draft.id where q.id = v_original.id;
  perform set_config('opshub.quote_named_audit', '', true);
  perform private.write_audit(v_original.account_id, 'quote_revised', 'quote', v_original.id,
                              jsonb_build_object('status', v_original.status),
                              jsonb_build_object('status', 'superseded', 'superseded_by', v_draft.id,
                                                 'revision_id', v_draft.id, 'revision', v_draft.quote_number));
  select * into v_draft from public.quotes q where q.id = v_draft.id;
  return v_draft;
end;
$$;
revoke all on function public.revise_quote(uuid) from public, anon;
grant execute on function public.revise_quote(uuid) to authenticated;
