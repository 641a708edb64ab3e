-- The radar's GIN indexes without a pending list (issue 38; decision 092). bench/rfp/radar.ts's EXPLAIN
-- ANALYZE at 100,000 opportunities showed the CPV lookup reading 410 index pages for 21 rows, and the
-- keyword lookup 72: GIN's fast update keeps new entries in a pending list that every search reads through
-- until a vacuum merges it, and a feed adds notices every hour (PGlite, the local backend, runs no
-- autovacuum at all). Without fast update each notice's entries go into the index as it is stored (the
-- feed job writes at most 1,000 per fetch), and a lookup reads only the index pages of its keys. What was
-- pending is merged now.

alter index public.opportunities_search_idx set (fastupdate = off);
alter index public.opportunities_cpv_groups_idx set (fastupdate = off);
alter index public.opportunities_cpv_codes_idx set (fastupdate = off);
select pg_catalog.gin_clean_pending_list('public.opportunities_search_idx'::regclass);
select pg_catalog.gin_clean_pending_list('public.opportunities_cpv_groups_idx'::regclass);
select pg_catalog.gin_clean_pending_list('public.opportunities_cpv_codes_idx'::regclass);
