-- The Documents screen's search finds a document by the start of any word or
-- number in its title or extracted text: 'INV-77' finds 'INV-77531' (issue 34:
-- a person searches by the start of a number; plainto_tsquery matched whole
-- words only). Still from the account-first GIN index over `search`
-- (20261130100003): a prefix query (`lexeme:*`) reads that index's entries
-- from the prefix on, so the search stays bounded by the account's matches.

-- The words of p_text as the 'simple' configuration reads them, each as the
-- start of a word, all of them required. The parser splits what a person
-- types as one word: 'INV-77' is the word 'inv' and the signed number '-77',
-- so the pieces of one typed word must follow each other ('inv':* <-> '-77':*;
-- 'inv':* alone would find every 'invoice'), and a number is found with or
-- without the minus its parse gave it ('7753' finds 'INV-77531'). Built from
-- the parser's own lexemes, so nothing typed is tsquery syntax; at most 16
-- pieces, as a search box holds a few words. Null when there are none.
create function private.prefix_tsquery(p_text text)
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
    -- A hyphenated word comes whole and then in parts: the whole one is enough.
    if v_token.alias in ('hword_part', 'hword_numpart', 'hword_asciipart') or v_token.lexemes is null
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

-- Only search_documents (its owner's rights) calls it, as private.contains_pattern.
revoke all on function private.prefix_tsquery(text) from public, anon, authenticated;

create or replace function public.search_documents(p_query text)
returns setof public.documents
language plpgsql stable
security definer
set search_path = ''
set enable_seqscan = off
as $$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query execute $sql$
    select d.* from public.documents d
     where d.account_id = $1
       and (d.search @@ $2 or d.title ilike $3)
  $sql$ using v_account, private.prefix_tsquery(p_query), private.contains_pattern(p_query);
end;
$$;
