-- Suggest reply without an AI provider (decision 083): the account's email
-- templates and canned replies ranked by trigram similarity (pg_trgm) to the
-- conversation's last inbound message, filled like canned replies. With a
-- provider the same ranking gives the prompt its templates.
--
-- Security definer because templates are read by admins and auditors only
-- (20261124100001): the function itself holds the rule, staff of the
-- conversation's account only, and gives only a template's name and text
-- (email templates: the ones written to people), never who wrote it.

create function public.suggest_replies(p_conversation_id uuid, p_limit integer default 5, p_id uuid default null)
returns jsonb
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_account uuid := public.current_account_id();
  v_contact text;
  v_agent text;
  v_last text;
  v_limit integer := least(greatest(coalesce(p_limit, 5), 1), 20);
begin
  if v_account is null or not public.is_account_staff() then
    return '[]'::jsonb;
  end if;
  select k.name into v_contact
    from public.conversations c join public.contacts k on k.id = c.contact_id
   where c.id = p_conversation_id and c.account_id = v_account;
  if not found then
    return '[]'::jsonb;
  end if;
  -- The customer's last words, bounded: similarity costs grow with the text.
  select lower(left(m.body, 2000)) into v_last
    from public.messages m
   where m.conversation_id = p_conversation_id and m.account_id = v_account and m.direction = 'inbound'
   order by m.created_at desc, m.id desc
   limit 1;
  select nullif(concat_ws(' ', u.first_name, u.last_name), '') into v_agent from public.users u where u.id = public.current_user_id();
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', r.id, 'source', r.source, 'name', r.name, 'score', round(r.score::numeric, 3),
             'body', replace(replace(replace(r.body, '{{contact_name}}', coalesce(v_contact, '')),
                                     '{{contact_first_name}}', split_part(coalesce(v_contact, ''), ' ', 1)),
                             '{{agent_name}}', coalesce(v_agent, '')))
           order by r.score desc, r.name)
      from (
        select c.*,
               -- The whole text against the message, or the name found inside it ("Refund" in "…a refund…").
               greatest(extensions.similarity(lower(left(c.name || ' ' || c.body, 2000)), coalesce(v_last, '')),
                        extensions.word_similarity(lower(c.name), coalesce(v_last, ''))) as score
          from (
            select r.id, 'canned'::text as source, r.name, r.body
              from public.canned_replies r where r.account_id = v_account
            union all
            select t.id, 'template', t.name, t.content
              from public.templates t where t.account_id = v_account and t.type = 'email'
          ) c
         where p_id is null or c.id = p_id
         order by score desc, c.name
         limit case when p_id is null then v_limit else 1 end
      ) r
     -- Asked by id: that one whatever its score; ranked: only those that resemble the message (a tenth of the trigrams: below, shared letters, not words).
     where p_id is not null or (v_last is not null and r.score >= 0.1)), '[]'::jsonb);
end;
$$;

revoke all on function public.suggest_replies(uuid, integer, uuid) from public, anon;
grant execute on function public.suggest_replies(uuid, integer, uuid) to authenticated;
