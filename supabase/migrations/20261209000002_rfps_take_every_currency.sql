-- A bid (public.rfps) takes any currency of the one list (decision 046, decision 101), as quotes and invoices do.
-- Its check allowed only USD, EUR and GBP, so a tender radar notice in PLN, SEK or CHF was pursued as a bid in USD
-- with its value left empty. Every kept row is in one of those three, which the list holds.
alter table public.rfps drop constraint rfps_currency_check;
alter table public.rfps add constraint rfps_currency_check check (public.is_currency(currency));
