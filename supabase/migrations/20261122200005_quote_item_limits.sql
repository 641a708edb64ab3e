-- A line item's description has the same limit as the quote form's
-- (2000 characters), enforced where every writer meets it. create_quote
-- writes the item last, so a description over the limit fails the whole
-- call: its contact and quote are rolled back with it.

alter table public.quote_items
  add constraint quote_items_description_length check (length(description) <= 2000);
