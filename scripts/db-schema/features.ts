// Which schema file (supabase/schemas/<feature>.sql) holds which objects,
// in the order the files apply. A table names its file; its indexes, keys,
// policies, triggers and grants follow it. A function goes to the first
// feature whose pattern matches its name, else to the file of the only
// tables whose triggers call it, else to `foundations`.
//
// A new table goes here, in its feature's list (a table no feature lists is
// written to `unsorted.sql`, and `npm run db:schema` says so). The order of
// the files is this list's, except that an object needing one of a later
// file is written in that later file (the generator says which).

export interface Feature {
  name: string;
  /** Why this file exists: its first comment, unless the file already has one of its own. */
  about: string;
  /** Qualified: public.quotes, private.quote_number_counters. */
  tables: string[];
  /** Function names (schema.name, no arguments) of this feature. */
  functions?: RegExp[];
  /** Other objects by key (catalogue.ts), e.g. triggers on auth's tables, policies on storage.objects. */
  objects?: RegExp[];
}

export const FEATURES: Feature[] = [
  {
    name: 'foundations',
    about: 'The schemas and extensions the rest builds on, and the helpers every feature calls: who is calling, request details, rate limits, currencies, audit plumbing.',
    tables: ['private.rate_limit_counters'],
        functions: [
      /^private\.(caller|request_|set_updated_at|jsonb_deep_merge|utc_iso|canonical_json|contains_pattern|prefix_tsquery|hit_rate_limit|rate_limit_minutes_left|is_end_user_request|signed_request_client|amount_cents|account_day|new_link_token|forget_caller)/,
      /^public\.(currencies|is_currency|fits_currency|current_|session_user_id)/,
    ],
  },
  {
    name: 'accounts',
    about: 'Accounts, their people and roles, invitations and signing in: the tables every policy asks "whose is this row, and what may this person do" of.',
    tables: ['public.accounts', 'public.users', 'public.user_invitations', 'private.failed_sign_ins'],
    objects: [/^trigger auth\.(users|sessions) /],
    functions: [
      /^public\.(is_account_|is_master_account|can_read_settings|can_write_business|get_open_invitation|renew_invitation|clear_failed_sign_ins|record_failed_sign_in|sign_in_lockout)/,
      /^private\.(acting_user_id|apply_user_activation|claim_invitation|create_account_for_new_user|default_invited_by|guard_user_changes|handle_|invitation_token_hash|sign_in_|sync_auth_user_changes|audit_user|check_account_iban|iban_valid|account_seller)/,
    ],
  },
  {
    name: 'audit',
    about: 'The audit log: one row per change of a business record, written by triggers, signed, capped and never edited.',
    tables: ['public.audit_logs', 'private.audit_signing_key'],
    functions: [/^private\.(audit_|write_audit|guard_audit_logs|cap_audit|changed_values|redact_secrets)/, /^public\.(audit_|list_audit_logs|record_history)/],
  },
  {
    name: 'records',
    about: 'What every business record shares: the list of record types and the one rule for who reads a row.',
    tables: ['private.record_types'],
    functions: [/^private\.(reads_business_row|default_created_by)/],
  },
  {
    name: 'modules',
    about: 'The catalogue of modules and what each account has switched on.',
    tables: ['public.modules', 'public.account_modules'],
    functions: [/^private\.(apply_module_price)/],
  },
  {
    name: 'settings',
    about: 'Templates, integrations and their write-only secrets: what an account sets up once.',
    tables: ['public.templates', 'public.integrations', 'private.integration_secrets'],
    objects: [/^policy storage\.objects branding/],
    functions: [
      /^public\.(integration_credentials|set_mail_route|mail_route_status|request_test_mail|update_website_settings|get_public_site_info)/,
      /^private\.(holds_secret|is_secret_key|keep_integration_secrets_apart|secrets_shape|split_integration_config|integration_route_follows_type|guard_website_settings)/,
    ],
  },
  {
    name: 'jobs',
    about: 'The jobs queue and the events that feed it: work the Worker does after a request.',
    tables: ['public.jobs', 'public.job_runs', 'public.events'],
    functions: [/^(public|private)\.(claim_jobs|enqueue_job|finish_job|reclaim_stale_jobs|emit_event|events_on_insert)/],
  },
  {
    name: 'documents',
    about: 'Documents: files in storage, what was read from them, and the records made from them.',
    tables: ['public.documents', 'private.document_extraction_requests'],
    objects: [/^policy storage\.objects account files/],
    functions: [/^(?!public\.create_(invoice|bill)_from_document).*document/, /^private\.(reviewed_document|guard_document_status)/],
  },
  {
    name: 'contacts',
    about: 'Contacts: clients and suppliers, and the figures shown beside them.',
    tables: ['public.contacts'],
    functions: [/^(public|private)\.(search_contacts|client_|readable_contacts)/],
  },
  {
    name: 'leads',
    about: 'Leads and their figures.',
    tables: ['public.leads', 'public.lead_stats'],
    functions: [/^(public|private)\.(lead_|search_leads|convert_lead)/],
  },
  {
    name: 'quotes',
    about: 'Quotes: their lines, numbers, figures, lifecycle and the public signing link.',
    tables: ['public.quotes', 'public.quote_items', 'public.quote_stats', 'public.quote_list', 'private.quote_number_counters', 'private.quote_portal_links'],
    functions: [/^(?!public\.convert_quote_to_invoice).*quote/, /^private\.(signature_png_bytes|take_seller_at_send|resends_in_last_hour)/, /^public\.(create_client_quote|expire_quotes|accept_quote|decline_quote|portal_brand)/],
  },
  {
    name: 'invoices',
    about: 'Invoices, their lines and payments, numbers, figures and the public invoice link.',
    tables: ['public.invoices', 'public.invoice_items', 'public.payments', 'private.invoice_number_counters', 'private.invoice_stats', 'private.invoice_totals', 'private.payment_stats'],
    functions: [/invoice/, /payment/, /^private\.(writable_invoice)/],
  },
  {
    name: 'bills',
    about: 'Bills: what suppliers invoice the account.',
    tables: ['public.bills'],
    functions: [/bill/],
  },
  {
    name: 'compliance',
    about: 'Compliance: obligations with recurrence, their occurrences, locked reviews and versioned evidence.',
    tables: ['public.compliance_items', 'public.compliance_occurrences', 'public.compliance_reviews', 'public.evidence',
             'public.compliance_catalogues', 'public.compliance_controls', 'public.compliance_item_controls', 'private.compliance_stats'],
    functions: [/compliance/, /^private\.(refuse_locked_change|evidence_version|count_compliance_item)/, /^public\.create_items_from_controls/],
  },
  {
    name: 'helpdesk',
    about: 'The helpdesk: conversations with contacts, their messages, and the inbound mailbox mail arrives at.',
    tables: ['private.inbound_mailboxes', 'public.conversations', 'public.messages', 'public.message_attachments',
      // SLAs, CSAT and presence (decision 075); canned replies (decision 076).
      'public.helpdesk_business_hours', 'public.helpdesk_sla_targets', 'public.sla_breaches', 'public.csat_responses',
      'private.csat_link_hits', 'public.conversation_presence', 'public.canned_replies',
      // The inbox's tag index (decision 090).
      'public.conversation_tags'],
    functions: [/conversation/, /^(public|private)\.(inbound_|receive_email|header_text|audit_message)/,
      /^(public|private)\.(helpdesk_|business_time_add|business_minutes_between|sla_|csat_|queue_csat_mail|open_csat_link|answer_csat|mark_replying|save_helpdesk_sla)/,
      /^(public|private)\.(receive_sms|record_sms_status|sms_hook_credentials|provider_credentials|route_outbound_sms|queue_outbound_sms|reply_tools|suggest_replies|message_next_response)/, /^public\.inbox_tagged$/],
  },
  {
    name: 'logistics',
    about: 'Logistics: purchase orders and their lines, shipments with packages and tracking events.',
    tables: ['public.purchase_orders', 'public.purchase_order_items', 'private.purchase_order_counters', 'public.shipments',
      'public.shipment_packages', 'public.tracking_events', 'private.carrier_hooks'],
    functions: [/purchase_order/, /shipment/, /tracking/, /carrier_/, /track_shipment/, /^private\.(assign_po_number|po_item_total|po_for_update|is_po_supplier|require_logistics_writer|audit_logistics)/, /^private\.(logistics_event_jobs|po_supplier_for|link_po_supplier|link_supplier_orders)$/],
  },
  {
    name: 'analytics',
    about: 'The analytics screen\'s figures over a date range, read across features.',
    tables: ['private.lead_day_stats', 'private.contact_day_stats', 'private.conversation_day_stats',
      'private.invoice_day_stats', 'private.quote_day_stats', 'private.payment_day_stats', 'private.lead_month_stats',
      'private.contact_month_stats', 'private.conversation_month_stats', 'private.invoice_month_stats', 'private.quote_month_stats',
      'private.payment_month_stats', 'private.shipment_day_stats', 'private.helpdesk_day_stats'],
    functions: [/^public\.analytics_/, /^private\.roll_(lead|contact|conversation|invoice|quote|payment)_(day|month)_stats/, /^private\.check_analytics_goals/,
      /^private\.unroll_invoice_payments/, /^private\.rebuild_analytics_/, /^public\.queue_report_export/,
      /^private\.(bump|roll)_helpdesk_(sla_|breach_|csat_)?day_stats/],
  },
  {
    name: 'automations',
    about: 'Automations: workflows over the events outbox, their runs (each once per event or scheduled time) and the tasks they assign.',
    tables: ['public.automations', 'public.automation_runs', 'public.tasks', 'public.automation_list'],
    functions: [/automation/, /my_open_tasks/],
  },
  {
    name: 'rfp',
    about: 'RFP: the bids (responses to tenders), their go/no-go decision, search and cards; the tender radar (sources, saved searches, opportunities, the feed job\'s functions, matching).',
    tables: ['public.rfps', 'public.tender_sources', 'public.tender_searches', 'public.opportunities',
      'private.radar_mailed', 'private.radar_digests', 'public.rfp_attachments', 'public.rfp_answers'],
    functions: [
      /^public\.search_rfps$/, /^public\.rfp_/, /^private\.audit_rfp$/, /^private\.tender_/, /^private\.audit_tender_setting$/,
      /^private\.audit_opportunity$/, /^public\.(claim_tender_sources|record_tender_fetch|ingest_tender_notices|radar_matches)$/,
      /^private\.(keyword_query|cpv_covers)$/,
      /^private\.radar_/, /^public\.queue_radar_/,
      /^private\.(audit_)?rfp_(attachment|answer|tags)/, /^public\.(search_rfp_answers|use_rfp_answer)$/,
    ],
  },
  {
    name: 'dashboard',
    about: 'The dashboard\'s figures, read across features.',
    tables: [],
    functions: [/^public\.dashboard_/],
  },
];

/** Where a table no feature lists is written. */
export const UNSORTED = 'unsorted';
