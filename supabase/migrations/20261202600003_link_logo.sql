-- The seller's logo for a public link's page (issue 31/32, decision 051).
--
-- The pages /q/:token and /i/:token allow images from their own origin only
-- (their Content-Security-Policy), so the Worker serves the logo at
-- /q/:token/logo and /i/:token/logo. These functions say which logo a link
-- may show: the one of the seller the document carries (decision 045: its
-- snapshot once sent, the account's now otherwise; a signed quote's signed
-- one), and only a path in that
-- document's own account's folder. Keyed by the link's token, like the page:
-- no account id is given out, a token opens one document's logo and no other,
-- and each call is counted by the link's own limits (private.quote_by_link /
-- private.invoice_by_link), so the logo route is no cheaper way to probe tokens.
--
-- Answer: null when the token opens nothing; {"limited": true} when over the
-- limits; else {"logo_path": <path or null>}.

create function public.quote_link_logo(p_token text) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_found record;
  v_path text;
begin
  select * into v_found from private.quote_by_link(p_token);
  if v_found.limited then
    return jsonb_build_object('limited', true);
  end if;
  if (v_found.quote).id is null or private.quote_link_state(v_found.quote) in ('not_found', 'superseded') then
    return null;
  end if;
  -- The seller the page shows (private.quote_link_view): the signed one once signed.
  v_path := coalesce((v_found.quote).signed_document -> 'seller',
                     private.document_seller((v_found.quote).seller, (v_found.quote).account_id)) ->> 'logo_path';
  if v_path is not null and v_path not in ((v_found.quote).account_id || '/logo.png', (v_found.quote).account_id || '/logo.jpg') then
    v_path := null;
  end if;
  return jsonb_build_object('logo_path', v_path);
end;
$$;
revoke all on function public.quote_link_logo(text) from public;
grant execute on function public.quote_link_logo(text) to anon, authenticated, service_role;

create function public.invoice_link_logo(p_token text) returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_found record;
  v_path text;
begin
  select * into v_found from private.invoice_by_link(p_token);
  if v_found.limited then
    return jsonb_build_object('limited', true);
  end if;
  if (v_found.invoice).id is null then
    return null;
  end if;
  v_path := private.document_seller((v_found.invoice).seller, (v_found.invoice).account_id) ->> 'logo_path';
  if v_path is not null and v_path not in ((v_found.invoice).account_id || '/logo.png', (v_found.invoice).account_id || '/logo.jpg') then
    v_path := null;
  end if;
  return jsonb_build_object('logo_path', v_path);
end;
$$;
revoke all on function public.invoice_link_logo(text) from public;
grant execute on function public.invoice_link_logo(text) to anon, authenticated, service_role;
