-- The radar's two private tables of what was mailed (20261206700001) keep row-level security on, as every
-- table of public and private does (migrations.test.ts): only the jobs runner's security definer
-- functions write and read them, and no role is granted anything, so no policy is needed.
alter table private.radar_mailed enable row level security;
alter table private.radar_digests enable row level security;
