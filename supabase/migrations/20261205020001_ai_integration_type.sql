-- doc2data's optional AI provider (issue 34, decision 082): an OpenAI-compatible
-- chat-completions endpoint configured as an integration of type 'ai' (api_url,
-- model, api_key; the key kept apart as every integration secret is, readable
-- only by the service role through integration_credentials). The helpdesk's
-- Suggest reply (decision 076) uses the same type.
alter table public.integrations drop constraint integrations_type_check;
alter table public.integrations add constraint integrations_type_check
  check (type in ('email', 'payment', 'crm', 'storage', 'ai'));
