-- The Peruvian sol, the Argentine, Chilean and Colombian pesos join the one list of currencies (decision 046; issue
-- 34). Document extraction read them (a Peruvian invoice's 'S/', a '$' on a document that names Argentina, Chile or
-- Colombia), and a record made from such a document was refused: its currency was not on the list. The list only
-- grows, so every row already written still satisfies the checks that read it. `create or replace` keeps the
-- function's grants.
create or replace function public.currencies()
returns table (code text, minor_units integer, name text)
language sql immutable parallel safe
set search_path = ''
as $$
  values ('USD', 2, 'US dollar'),
         ('EUR', 2, 'Euro'),
         ('GBP', 2, 'Pound sterling'),
         ('CAD', 2, 'Canadian dollar'),
         ('AUD', 2, 'Australian dollar'),
         ('NZD', 2, 'New Zealand dollar'),
         ('CHF', 2, 'Swiss franc'),
         ('JPY', 0, 'Japanese yen'),
         ('CNY', 2, 'Chinese yuan'),
         ('HKD', 2, 'Hong Kong dollar'),
         ('SGD', 2, 'Singapore dollar'),
         ('INR', 2, 'Indian rupee'),
         ('AED', 2, 'UAE dirham'),
         ('SEK', 2, 'Swedish krona'),
         ('NOK', 2, 'Norwegian krone'),
         ('DKK', 2, 'Danish krone'),
         ('PLN', 2, 'Polish złoty'),
         ('CZK', 2, 'Czech koruna'),
         ('ZAR', 2, 'South African rand'),
         ('BRL', 2, 'Brazilian real'),
         ('MXN', 2, 'Mexican peso'),
         ('PEN', 2, 'Peruvian sol'),
         ('ARS', 2, 'Argentine peso'),
         ('CLP', 0, 'Chilean peso'),
         ('COP', 2, 'Colombian peso')
$$;
