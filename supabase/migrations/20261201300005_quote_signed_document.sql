-- A signature bound to what was signed, and a drawn signature bounded
-- (issue 30, items 8 and 9).
--
-- accept_quote stored whatever content hash its caller passed, and a signed
-- quote's PDF was rendered from the contact and account as they are now (a
-- renamed company changed the signed PDF; the certificate kept the old hash).
-- Now the database takes the quote's document at the moment of signing:
-- `signed_document`, a JSON snapshot of the quote as the client saw it (the
-- seller's name and email, number, issue and expiry, the client's name,
-- company and email, currency, lines, amounts, discount, tax, total, notes),
-- and `content_hash`, the SHA-256 (hex) of its canonical text:
-- private.canonical_json, JSON with every object's keys in ascending order
-- (code points; all keys are ASCII), no whitespace, strings escaped as JSON
-- does, amounts as decimal strings, instants as ISO 8601 UTC with
-- milliseconds; hashed as UTF-8. JSON.stringify with sorted keys gives the
-- same text, so anyone holding the snapshot can verify the hash
-- (tests/db/quote-signature.test.ts does). The caller no longer passes a
-- hash: accept_quote(token, name, email, signature_png), the old signature
-- is dropped. A signed quote's document (its PDF, quote_document and the
-- link's) is the snapshot from then on, with the signature's evidence.
-- Quotes signed before this have no snapshot and render as before.
--
-- The drawn signature: at most 100 KB, a PNG whose header (IHDR) says at
-- most 1200 x 400 pixels, 8 bits per channel, grey, grey + alpha, RGB or
-- RGBA, not interlaced. A 190 KB PNG declaring a huge image inflated to
-- 196 MB on every render. The Worker also inflates the image with a bounded
-- inflater and stores it re-encoded (app/lib/pdf/signature-png.ts); the
-- PDF renderer checks the same bounds before it decodes a stored one.

alter table public.quotes add column signed_document jsonb;

-- A quote's audit rows do not carry the snapshot (it repeats the quote).
create or replace function private.quote_audit_snapshot(p_row public.quotes) returns jsonb
language sql immutable
set search_path = ''
as $$
  select to_jsonb(p_row) - 'link_token_hash' - 'signature_png' - 'signed_document'
$$;

-- The canonical text of a JSON value (see above).
create function private.canonical_json(p_value jsonb) returns text
language plpgsql immutable
set search_path = ''
as $$
begin
  return case jsonb_typeof(p_value)
    when 'object' then '{' || coalesce((
      select string_agg(to_jsonb(e.key)::text || ':' || private.canonical_json(e.value), ',' order by e.key collate "C")
        from jsonb_each(p_value) e), '') || '}'
    when 'array' then '[' || coalesce((
      select string_agg(private.canonical_json(e.value), ',' order by e.n)
        from jsonb_array_elements(p_value) with ordinality e(value, n)), '') || ']'
    else p_value::text
  end;
end;
$$;
revoke all on function private.canonical_json(jsonb) from public;

create function private.utc_iso(p_at timestamptz) returns text
language sql immutable
set search_path = ''
as $$
  select to_char(p_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
revoke all on function private.utc_iso(timestamptz) from public;

-- The quote as its client sees it now, in the renderer's keys (QuotePdfInput
-- without status and signature): what a signature is bound to.
create function private.quote_signed_snapshot(p_quote_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'v', 2,
    'account', jsonb_build_object('name', a.name, 'contactEmail', a.billing_email),
    'quoteNumber', coalesce(q.quote_number, ''),
    'issuedAt', private.utc_iso(coalesce(q.sent_at, q.created_at)),
    'expiresAt', private.utc_iso(q.expires_at),
    'currency', q.currency,
    'contact', case when c.id is null then null
                    else jsonb_build_object('name', c.name, 'email', c.email, 'company', c.company) end,
    'items', coalesce((
      select jsonb_agg(jsonb_build_object('description', i.description, 'quantity', i.qty,
                                          'unitPrice', i.unit_price::text, 'lineTotal', i.total::text)
                       order by i.position, i.created_at, i.id)
        from public.quote_items i where i.quote_id = q.id), '[]'::jsonb),
    'subtotal', q.subtotal::text,
    'discountPercent', q.discount::text,
    'discount', q.discount_amount::text,
    'taxRate', q.tax_rate::text,
    'tax', q.tax_amount::text,
    'total', q.total::text,
    'notes', q.notes)
  from public.quotes q
  join public.accounts a on a.id = q.account_id
  left join public.contacts c on c.id = q.contact_id
  where q.id = p_quote_id
$$;
revoke all on function private.quote_signed_snapshot(uuid) from public;

-- A quote's document: a signed quote's is its snapshot (what was signed), an
-- unsigned one's is read live as before.
create or replace function private.quote_document_json(p_quote_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select case when q.signed_document is not null then
    (q.signed_document - 'v') || jsonb_build_object('status', q.status, 'signature', jsonb_build_object(
      'signerName', q.signer_name, 'signerEmail', coalesce(q.signer_email, ''), 'signedAt', q.signed_at,
      'ip', q.signer_ip, 'userAgent', q.signer_user_agent, 'contentHash', coalesce(q.content_hash, ''),
      'drawnSignaturePng', encode(q.signature_png, 'base64')))
  else jsonb_build_object(
    'account', jsonb_build_object('name', a.name, 'contactEmail', a.billing_email),
    'quoteNumber', coalesce(q.quote_number, ''),
    'status', q.status,
    'issuedAt', coalesce(q.sent_at, q.created_at),
    'expiresAt', q.expires_at,
    'currency', q.currency,
    'contact', case when c.id is null then null
                    else jsonb_build_object('name', c.name, 'email', c.email, 'company', c.company) end,
    'items', coalesce((
      select jsonb_agg(jsonb_build_object('description', i.description, 'quantity', i.qty,
                                          'unitPrice', i.unit_price::text, 'lineTotal', i.total::text)
                       order by i.position, i.created_at, i.id)
        from public.quote_items i where i.quote_id = q.id), '[]'::jsonb),
    'subtotal', q.subtotal::text,
    'discountPercent', q.discount::text,
    'discount', q.discount_amount::text,
    'taxRate', q.tax_rate::text,
    'tax', q.tax_amount::text,
    'total', q.total::text,
    'notes', q.notes,
    'signature', case when q.status = 'signed' and q.signed_at is not null then jsonb_build_object(
      'signerName', q.signer_name, 'signerEmail', coalesce(q.signer_email, ''), 'signedAt', q.signed_at,
      'ip', q.signer_ip, 'userAgent', q.signer_user_agent, 'contentHash', coalesce(q.content_hash, ''),
      'drawnSignaturePng', encode(q.signature_png, 'base64')) end)
  end
  from public.quotes q
  join public.accounts a on a.id = q.account_id
  left join public.contacts c on c.id = q.contact_id
  where q.id = p_quote_id
$$;

-- A drawn signature's bytes from base64, refused unless it is a small PNG of
-- bounded dimensions (see above). The pixels are not inflated here: the
-- header bounds what a decoder allocates, and the PDF renderer inflates with a
-- cap of what the header allows.
create function private.signature_png_bytes(p_base64 text) returns bytea
language plpgsql immutable
set search_path = ''
as $$
declare
  v_png bytea;
  v_width bigint;
  v_height bigint;
begin
  if nullif(p_base64, '') is null then
    return null;
  end if;
  if length(p_base64) > 136000 or p_base64 !~ '^[A-Za-z0-9+/]+={0,2}$' or length(p_base64) % 4 <> 0 then
    raise exception 'The drawn signature is not a PNG or is too large (at most 100 KB)' using errcode = '22023';
  end if;
  v_png := decode(p_base64, 'base64');
  if octet_length(v_png) > 100000 then
    raise exception 'The drawn signature is too large (at most 100 KB)' using errcode = '22023';
  end if;
  -- Signature, then the IHDR chunk first: length 13, type, width, height,
  -- bit depth, colour type, compression, filter, interlace.
  if octet_length(v_png) < 33
     or substring(v_png from 1 for 16) <> '\x89504e470d0a1a0a0000000d49484452'::bytea then
    raise exception 'The drawn signature is not a PNG' using errcode = '22023';
  end if;
  v_width := (get_byte(v_png, 16)::bigint << 24) | (get_byte(v_png, 17) << 16) | (get_byte(v_png, 18) << 8) | get_byte(v_png, 19);
  v_height := (get_byte(v_png, 20)::bigint << 24) | (get_byte(v_png, 21) << 16) | (get_byte(v_png, 22) << 8) | get_byte(v_png, 23);
  if v_width < 1 or v_width > 1200 or v_height < 1 or v_height > 400 then
    raise exception 'The drawn signature is too large (at most 1200 x 400 pixels)' using errcode = '22023';
  end if;
  if get_byte(v_png, 24) <> 8 or get_byte(v_png, 25) not in (0, 2, 4, 6)
     or get_byte(v_png, 26) <> 0 or get_byte(v_png, 27) <> 0 or get_byte(v_png, 28) <> 0 then
    raise exception 'The drawn signature is not a PNG this page draws (8-bit, not interlaced)' using errcode = '22023';
  end if;
  return v_png;
end;
$$;
revoke all on function private.signature_png_bytes(text) from public;

drop function public.accept_quote(text, text, text, text, text);

-- Accept and sign: the document and its hash are taken here, under the row
-- lock, from the quote as it is (a sent quote cannot change: decision 025).
create function public.accept_quote(
  p_token text, p_name text, p_email text default null, p_signature_png text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_found record;
  v_quote public.quotes;
  v_old_status text;
  v_name text := btrim(coalesce(p_name, ''));
  v_email text := nullif(lower(btrim(coalesce(p_email, ''))), '');
  v_png bytea;
  v_client record;
  v_document jsonb;
  v_hash text;
begin
  select * into v_found from private.quote_to_change(p_token);
  if v_found.answer is not null then
    return v_found.answer;
  end if;
  v_quote := v_found.quote;
  v_old_status := v_quote.status;
  if length(v_name) < 1 or length(v_name) > 200 then
    raise exception 'Type your full name to sign' using errcode = '22023';
  end if;
  if v_email is not null and (length(v_email) > 320 or v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$') then
    raise exception 'The email address is not valid' using errcode = '22023';
  end if;
  v_png := private.signature_png_bytes(p_signature_png);
  select * into v_client from private.request_client();
  v_document := private.quote_signed_snapshot(v_quote.id);
  v_hash := encode(extensions.digest(convert_to(private.canonical_json(v_document), 'UTF8'), 'sha256'), 'hex');

  perform set_config('opshub.quote_named_audit', 'on', true);
  update public.quotes q
     set status = 'signed', signed_at = now(), viewed_at = coalesce(q.viewed_at, now()),
         signer_name = v_name, signer_email = v_email,
         signer_ip = left(v_client.ip_address, 100), signer_user_agent = left(v_client.user_agent, 1000),
         content_hash = v_hash, signed_document = v_document, signature_png = v_png
   where q.id = v_quote.id
  returning * into v_quote;
  perform set_config('opshub.quote_named_audit', '', true);

  perform private.write_audit(v_quote.account_id, 'quote_signed', 'quote', v_quote.id,
    jsonb_build_object('status', v_old_status, 'signed_at', null),
    jsonb_build_object('status', 'signed', 'signed_at', v_quote.signed_at, 'signer_name', v_name,
                       'signer_email', v_email, 'signer_ip', v_quote.signer_ip,
                       'content_hash', v_hash, 'drawn_signature', v_png is not null));
  perform private.emit_event(v_quote.account_id, 'quote_accepted', 'quotes', v_quote.id,
    jsonb_build_object('quote_number', v_quote.quote_number, 'signer_name', v_name));
  -- The account's admins hear of it by mail (the quote_accepted job).
  perform private.enqueue_job('quote_accepted', v_quote.account_id, jsonb_build_object('quote_id', v_quote.id),
                              'quote_accepted:' || v_quote.id, v_quote.id);
  return private.quote_link_view(v_quote.id, 'signed') || jsonb_build_object('signed_now', true);
end;
$$;
revoke all on function public.accept_quote(text, text, text, text) from public, anon, authenticated;
grant execute on function public.accept_quote(text, text, text, text) to anon, authenticated, service_role;
