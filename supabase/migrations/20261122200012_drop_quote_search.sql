-- Undoes search_quotes and its trigram indexes (20261122200011): measured
-- (bench/README.md, Business screens), the indexes span every account, so a
-- word many accounts share made a small account's search walk the other
-- accounts' matches before RLS dropped them: 41 ms before, 122 ms after for
-- a 10-quote account on PGlite, and no gain for the 100,000-quote one. The
-- list searches the quote_list view again, within the caller's account.
-- pg_trgm stays installed (20261122200011 needs it when migrating afresh).
drop function public.search_quotes(text);
drop index public.quotes_quote_number_trgm_idx;
drop index public.quotes_notes_trgm_idx;
drop index public.contacts_name_trgm_idx;
drop index public.contacts_company_trgm_idx;
