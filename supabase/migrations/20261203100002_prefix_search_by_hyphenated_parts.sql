-- A hyphenated word is searched by its parts, not whole: the parser reads
-- 'INV-SEARCH-77' as 'inv-search', its parts 'inv' and 'search', then '-77',
-- so the phrase 'inv-search' <-> '77' never matched (the parts stand between
-- them), while 'inv' <-> 'search' <-> '-77' does, and so does a prefix typed
-- part-way ('INV-SEA'). Still one GIN-indexed match, flat as the account grows.
create or replace function private.prefix_tsquery(p_text text)
returns tsquery
language plpgsql stable parallel safe
set search_path = ''
as $$
declare
  v_token record;
  v_word tsquery;
  v_piece tsquery;
  v_query tsquery;
  v_pieces int := 0;
begin
  for v_token in
    select t.alias, t.token, t.lexemes
      from pg_catalog.ts_debug('simple'::regconfig, left(coalesce(p_text, ''), 200)) t
  loop
    if v_token.alias = 'blank' then
      -- Whitespace ends a typed word; other punctuation ('INV/77') joins its pieces.
      if v_token.token ~ '\s' and v_word is not null then
        v_query := case when v_query is null then v_word else v_query && v_word end;
        v_word := null;
      end if;
      continue;
    end if;
    -- A hyphenated word comes whole and then in parts: the parts are what stand next to what follows.
    if v_token.alias in ('hword', 'asciihword', 'numhword') or v_token.lexemes is null
       or pg_catalog.cardinality(v_token.lexemes) = 0 or pg_catalog.strpos(v_token.lexemes[1], E'\\') > 0 then
      continue;
    end if;
    v_pieces := v_pieces + 1;
    exit when v_pieces > 16;
    v_piece := pg_catalog.format('%s:*', pg_catalog.quote_literal(v_token.lexemes[1]))::tsquery;
    if v_token.lexemes[1] ~ '^[0-9]' then
      v_piece := v_piece || pg_catalog.format('%s:*', pg_catalog.quote_literal('-' || v_token.lexemes[1]))::tsquery;
    end if;
    v_word := case when v_word is null then v_piece else v_word <-> v_piece end;
  end loop;
  if v_word is not null then
    v_query := case when v_query is null then v_word else v_query && v_word end;
  end if;
  return v_query;
end;
$$;
