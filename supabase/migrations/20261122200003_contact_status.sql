-- A client's status (docs/product-guide.md: active, inactive, prospect), shown as a badge in
-- the Client Directory and filterable there. New clients are active.

alter table public.contacts
  add column status text not null default 'active' check (status in ('active', 'inactive', 'prospect'));
