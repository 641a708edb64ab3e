-- The seller on every document (issue 31; decision 045).
--
-- Settings → Account had nowhere to enter who the seller is: quotes,
-- invoices, their PDFs, mails and public pages named the account and nothing
-- else. The account now holds its address, tax ID, company registration, bank
-- details, payment terms, a logo (an object in the bucket `branding`) and an
-- accent colour; admins alone change them (the accounts update policy and a
-- column grant, as for the other account settings). The database refuses what
-- no form should send: control characters, overlong text, an IBAN whose
-- mod-97 check fails, a BIC or colour of the wrong shape, a logo path outside
-- the account's own folder.
--
-- A document that was sent keeps the seller details it was sent with: quotes
-- and invoices get `seller`, a JSON snapshot filled by a trigger when the row
-- leaves draft (whichever function sends it), never writable by a user. Their
-- documents (PDF input, public views) carry `seller`: the snapshot when there
-- is one, the live account otherwise (a draft). A quote signed from now on has
-- the seller in its signed snapshot (v 3), so its content hash covers it.
--
-- `country` was free text; it is now an ISO 3166-1 alpha-2 code. Existing
-- names that are plainly a country are converted; anything else is cleared.

-- 1. Country as a code ------------------------------------------------------

update public.accounts a
   set country = case
     when upper(btrim(a.country)) ~ '^[A-Z]{2}$' then upper(btrim(a.country))
     else m.code end
  from (values
    ('united states', 'US'), ('united states of america', 'US'), ('usa', 'US'), ('us', 'US'),
    ('united kingdom', 'GB'), ('uk', 'GB'), ('great britain', 'GB'), ('england', 'GB'),
    ('germany', 'DE'), ('deutschland', 'DE'), ('france', 'FR'), ('spain', 'ES'), ('italy', 'IT'),
    ('netherlands', 'NL'), ('the netherlands', 'NL'), ('belgium', 'BE'), ('austria', 'AT'),
    ('switzerland', 'CH'), ('ireland', 'IE'), ('portugal', 'PT'), ('poland', 'PL'), ('sweden', 'SE'),
    ('norway', 'NO'), ('denmark', 'DK'), ('finland', 'FI'), ('canada', 'CA'), ('australia', 'AU'),
    ('new zealand', 'NZ'), ('japan', 'JP'), ('india', 'IN'), ('united arab emirates', 'AE'),
    ('singapore', 'SG'), ('mexico', 'MX'), ('brazil', 'BR'), ('south africa', 'ZA')
  ) as m(name, code)
 where a.country is not null
   and (lower(btrim(a.country)) = m.name or (upper(btrim(a.country)) ~ '^[A-Z]{2}$' and m.name = 'us'));
update public.accounts set country = null where country is not null and country !~ '^[A-Z]{2}$';

-- 2. The columns and what they may hold --------------------------------------

-- An IBAN (ISO 13616, no spaces, upper case) whose check digits hold: the
-- country and check digits moved to the end, letters as 10..35, mod 97 = 1.
create function private.iban_valid(p_iban text) returns boolean
language plpgsql immutable
set search_path = ''
as $$
declare
  v_text text;
  v_digits text := '';
  v_rest integer := 0;
  i integer;
begin
  if p_iban is null then
    return true;
  end if;
  if p_iban !~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$' then
    return false;
  end if;
  v_text := substr(p_iban, 5) || substr(p_iban, 1, 4);
  for i in 1..length(v_text) loop
    v_digits := v_digits || case when substr(v_text, i, 1) ~ '[0-9]' then substr(v_text, i, 1)
                                 else (ascii(substr(v_text, i, 1)) - 55)::text end;
  end loop;
  for i in 1..length(v_digits) loop
    v_rest := (v_rest * 10 + substr(v_digits, i, 1)::integer) % 97;
  end loop;
  return v_rest = 1;
end;
$$;
revoke all on function private.iban_valid(text) from public;

alter table public.accounts
  add column address_line1 text,
  add column address_line2 text,
  add column postal_code text,
  add column city text,
  add column region text,
  add column tax_id text,
  add column company_registration text,
  add column iban text,
  add column bic text,
  add column bank_details text,
  add column payment_terms text,
  add column logo_path text,
  add column accent_color text,
  add constraint accounts_country_code check (country ~ '^[A-Z]{2}$'),
  add constraint accounts_address_line1_text check (length(address_line1) between 1 and 200 and address_line1 !~ '[\u0001-\u001f\u007f]'),
  add constraint accounts_address_line2_text check (length(address_line2) between 1 and 200 and address_line2 !~ '[\u0001-\u001f\u007f]'),
  add constraint accounts_postal_code_text check (length(postal_code) between 1 and 20 and postal_code !~ '[\u0001-\u001f\u007f]'),
  add constraint accounts_city_text check (length(city) between 1 and 100 and city !~ '[\u0001-\u001f\u007f]'),
  add constraint accounts_region_text check (length(region) between 1 and 100 and region !~ '[\u0001-\u001f\u007f]'),
  add constraint accounts_tax_id_text check (length(tax_id) between 1 and 50 and tax_id !~ '[\u0001-\u001f\u007f]'),
  add constraint accounts_company_registration_text
    check (length(company_registration) between 1 and 100 and company_registration !~ '[\u0001-\u001f\u007f]'),
  add constraint accounts_iban_shape check (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$'),
  add constraint accounts_bic_shape check (bic ~ '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$'),
  add constraint accounts_bank_details_text check (length(bank_details) between 1 and 500 and bank_details !~ '[\u0001-\u0009\u000b\u000c\u000e-\u001f\u007f]'),
  add constraint accounts_payment_terms_text check (length(payment_terms) between 1 and 500 and payment_terms !~ '[\u0001-\u0009\u000b\u000c\u000e-\u001f\u007f]'),
  add constraint accounts_logo_path_own check (logo_path in (id::text || '/logo.png', id::text || '/logo.jpg')),
  add constraint accounts_accent_color_hex check (accent_color ~ '^#[0-9a-f]{6}$');

-- The IBAN's check digits, checked by a trigger: a check constraint runs its
-- functions as the caller, and the API roles have no right to private's.
create function private.check_account_iban() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not private.iban_valid(new.iban) then
    raise exception 'The IBAN is not valid (its check digits do not match)' using errcode = '23514';
  end if;
  return new;
end;
$$;
revoke all on function private.check_account_iban() from public;
create trigger accounts_check_iban before insert or update of iban on public.accounts
  for each row execute function private.check_account_iban();

-- Admins write them as they write the other settings (the update policy of
-- 20261122000009 lets only an admin's update match a row).
grant update (address_line1, address_line2, postal_code, city, region, tax_id, company_registration,
              iban, bic, bank_details, payment_terms, logo_path, accent_color)
  on public.accounts to authenticated;

-- 3. The logo's bucket ----------------------------------------------------------

-- Public-read: a logo is printed on every document the account sends, and
-- the Worker embeds it in a PDF for anyone who holds a document's link (it has
-- no service role). Only the object's URL reads it (listing stays staff's).
-- PNG or JPEG, at most 512 KB; the Worker checks the bytes and the dimensions
-- before it stores one, and again before it embeds one.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('branding', 'branding', true, 524288, array['image/png', 'image/jpeg'])
on conflict (id) do update
  set public = true, file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types, updated_at = now();

create policy "branding: staff read" on storage.objects for select to authenticated
  using (
    bucket_id = 'branding'
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and (select public.is_account_staff())
  );
create policy "branding: admins add" on storage.objects for insert to authenticated
  with check (
    bucket_id = 'branding'
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and (select public.is_account_admin())
  );
create policy "branding: admins change" on storage.objects for update to authenticated
  using (
    bucket_id = 'branding'
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and (select public.is_account_admin())
  )
  with check (
    bucket_id = 'branding'
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and (select public.is_account_admin())
  );
create policy "branding: admins remove" on storage.objects for delete to authenticated
  using (
    bucket_id = 'branding'
    and (storage.foldername(name))[1] = (select public.current_account_id())::text
    and (select public.is_account_admin())
  );

-- 4. The seller as a document carries it ------------------------------------------

-- The account's seller details now, in the keys every document uses.
create function private.account_seller(p_account_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'name', a.name, 'address_line1', a.address_line1, 'address_line2', a.address_line2,
    'postal_code', a.postal_code, 'city', a.city, 'region', a.region, 'country', a.country,
    'tax_id', a.tax_id, 'company_registration', a.company_registration,
    'iban', a.iban, 'bic', a.bic, 'bank_details', a.bank_details, 'payment_terms', a.payment_terms,
    'logo_path', a.logo_path, 'accent_color', a.accent_color)
  from public.accounts a
  where a.id = p_account_id
$$;
revoke all on function private.account_seller(uuid) from public;

alter table public.quotes add column seller jsonb;
alter table public.invoices add column seller jsonb;

-- The snapshot is taken when a row leaves draft (or is made past draft), by
-- whichever path sends it; it is never replaced after.
create function private.take_seller_at_send() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    if old.seller is not null then
      new.seller := old.seller;
      return new;
    end if;
    if old.status is distinct from 'draft' then
      new.seller := null;
      return new;
    end if;
  end if;
  if new.status <> 'draft' then
    new.seller := private.account_seller(new.account_id);
  else
    new.seller := null;
  end if;
  return new;
end;
$$;
revoke all on function private.take_seller_at_send() from public;
create trigger quotes_seller_at_send before insert or update on public.quotes
  for each row execute function private.take_seller_at_send();
create trigger invoices_seller_at_send before insert or update on public.invoices
  for each row execute function private.take_seller_at_send();

-- A quote's audit rows do not repeat the snapshot (it is the account's settings).
create or replace function private.quote_audit_snapshot(p_row public.quotes) returns jsonb
language sql immutable
set search_path = ''
as $$
  select to_jsonb(p_row) - 'link_token_hash' - 'signature_png' - 'signed_document' - 'seller'
$$;

-- The seller a document shows: the one it was sent with, else the account's now.
create function private.document_seller(p_snapshot jsonb, p_account_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(p_snapshot, private.account_seller(p_account_id))
$$;
revoke all on function private.document_seller(jsonb, uuid) from public;

-- The document functions gain `seller`. Their bodies stay where they are: each
-- is renamed to *_without_seller and wrapped by the old name.
alter function private.quote_signed_snapshot(uuid) rename to quote_signed_snapshot_without_seller;
create function private.quote_signed_snapshot(p_quote_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select (private.quote_signed_snapshot_without_seller(q.id) - 'v')
         || jsonb_build_object('v', 3, 'seller', private.document_seller(q.seller, q.account_id))
    from public.quotes q
   where q.id = p_quote_id
$$;
revoke all on function private.quote_signed_snapshot(uuid) from public;

alter function private.quote_document_json(uuid) rename to quote_document_json_without_seller;
create function private.quote_document_json(p_quote_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select private.quote_document_json_without_seller(q.id)
         || jsonb_build_object('seller', coalesce(q.signed_document -> 'seller',
                                                  private.document_seller(q.seller, q.account_id)))
    from public.quotes q
   where q.id = p_quote_id
$$;
revoke all on function private.quote_document_json(uuid) from public;

alter function private.quote_link_view(uuid, text) rename to quote_link_view_without_seller;
create function private.quote_link_view(p_quote_id uuid, p_state text) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select private.quote_link_view_without_seller(p_quote_id, p_state)
         || coalesce((select jsonb_build_object('seller', coalesce(q.signed_document -> 'seller',
                                                                   private.document_seller(q.seller, q.account_id)))
                        from public.quotes q where q.id = p_quote_id), '{}'::jsonb)
$$;
revoke all on function private.quote_link_view(uuid, text) from public;

alter function private.invoice_document_json(uuid) rename to invoice_document_json_without_seller;
create function private.invoice_document_json(p_invoice_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select private.invoice_document_json_without_seller(i.id)
         || jsonb_build_object('seller', private.document_seller(i.seller, i.account_id))
    from public.invoices i
   where i.id = p_invoice_id
$$;
revoke all on function private.invoice_document_json(uuid) from public;

-- The public invoice page: the same answer with the seller.
alter function public.public_invoice(text) rename to public_invoice_without_seller;
alter function public.public_invoice_without_seller(text) set schema private;
revoke all on function private.public_invoice_without_seller(text) from public, anon, authenticated, service_role;
create function public.public_invoice(p_token text) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_answer jsonb := private.public_invoice_without_seller(p_token);
  v_invoice public.invoices;
begin
  if v_answer is null or v_answer ? 'rate_limited' then
    return v_answer;
  end if;
  -- The link was counted once above; find its invoice again without counting.
  select * into v_invoice from public.invoices i where i.link_token_hash = sha256(convert_to(p_token, 'UTF8'));
  return v_answer || jsonb_build_object('seller', private.document_seller(v_invoice.seller, v_invoice.account_id));
end;
$$;
revoke all on function public.public_invoice(text) from public;
grant execute on function public.public_invoice(text) to anon, authenticated, service_role;
