-- One rate limiter for the public links (issue 30): the quote link's
-- private.hit_rate_limit and private.request_ip (20261201300001) and the
-- invoice link's private.throttle and private.public_caller_key
-- (20261201500001) were written side by side and did the same. The invoice
-- link now counts through the quote link's limiter, keyed by the same caller
-- address (the Worker's signed client IP, else the address the API gateway
-- appended to X-Forwarded-For), with the same budgets as before: per caller
-- 120 calls a minute over every link, per caller and token 60, per token 600.
create or replace function private.invoice_by_link(p_token text, out invoice public.invoices, out limited boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_caller text := coalesce(private.request_ip(), 'no address');
  v_hash bytea;
  v_link text;
  v_within_caller boolean;
  v_within_link boolean;
begin
  limited := false;
  invoice := null;
  if p_token is null or length(p_token) < 20 or length(p_token) > 200 then
    return;
  end if;
  if not private.hit_rate_limit('invoice_link:ip:' || v_caller, 120, interval '1 minute') then
    limited := true;
    return;
  end if;
  v_hash := sha256(convert_to(p_token, 'UTF8'));
  select * into invoice from public.invoices i where i.link_token_hash = v_hash and i.status not in ('draft', 'void');
  if invoice.id is null then
    invoice := null;
    return;
  end if;
  v_link := 'invoice_link:token:' || encode(v_hash, 'hex');
  -- Both counters count every call (each asked on its own), so the totals are true.
  v_within_caller := private.hit_rate_limit(v_link || ':ip:' || v_caller, 60, interval '1 minute');
  v_within_link := private.hit_rate_limit(v_link, 600, interval '1 minute');
  if not (v_within_caller and v_within_link) then
    limited := true;
    invoice := null;
  end if;
end;
$$;
revoke all on function private.invoice_by_link(text) from public;

drop function private.throttle(text, integer, integer);
drop function private.public_caller_key();
drop table private.throttle_hits;
