-- Demo data for local development: the master account 'OpsHub Pro' with an
-- admin and an auditor and the samples of the spec's screens, plus a second
-- account, 'Northwind Traders', so tenant isolation is visible.
--
--   demo@opshub.test      / demo1234  admin of OpsHub Pro (the master account)
--   auditor@opshub.test   / demo1234  auditor of OpsHub Pro
--   member@opshub.test    / demo1234  member (staff) of OpsHub Pro
--   john@acme.test        / demo1234  client of OpsHub Pro: John Smith of Acme, sees the quotes addressed to him
--   admin@northwind.test  / demo1234  admin of Northwind Traders
--
-- Users go through the real sign-up trigger: a plain auth.users insert creates
-- an account and its admin; an insert carrying an invitation token joins the
-- invitation's account. Writes are made "as" the acting user (JWT claims with
-- the service role), so audit rows name who did what.

create or replace function pg_temp.seed_auth_user(p_id uuid, p_email text, p_first text, p_last text, p_app_meta jsonb)
returns void language sql as $$
  insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                          confirmation_token, recovery_token, raw_app_meta_data, raw_user_meta_data,
                          created_at, updated_at)
  values ('00000000-0000-0000-0000-000000000000', p_id, 'authenticated', 'authenticated', p_email,
          extensions.crypt('demo1234', extensions.gen_salt('bf')), now(), '', '',
          '{"provider": "email", "providers": ["email"]}'::jsonb || p_app_meta,
          jsonb_build_object('first_name', p_first, 'last_name', p_last), now(), now());
$$;

create or replace function pg_temp.act_as(p_auth_user_id uuid) returns void language sql as $$
  select set_config('request.jwt.claims',
                    json_build_object('sub', p_auth_user_id, 'role', 'service_role')::text, false);
$$;

-- OpsHub Pro: Dana signs up, then makes it the master account.
select pg_temp.seed_auth_user('d0000000-0000-4000-8000-000000000001', 'demo@opshub.test', 'Dana', 'Demo', '{}');
select pg_temp.act_as('d0000000-0000-4000-8000-000000000001');
update public.accounts
   set name = 'OpsHub Pro',
       billing_email = 'hello@opshub.test',
       description = 'Operations & Automation Hub — Pro Edition',
       country = 'US',
       subscription_status = 'active',
       trial_ends_at = null,
       created_at = '2025-01-06 09:00:00+00'
 where id = (select account_id from public.users where email = 'demo@opshub.test');

-- The auditor joins through an invitation, as accept-invitation would do it
-- (the table keeps only the token's hash; the raw token is what the mail carries).
select set_config('seed.auditor_token', encode(extensions.gen_random_bytes(32), 'hex'), false);
insert into public.user_invitations (account_id, email, role, first_name, last_name, token_hash, invited_by, created_at)
select u.account_id, 'auditor@opshub.test', 'auditor', 'Avery', 'Auditor',
       encode(extensions.digest(current_setting('seed.auditor_token'), 'sha256'), 'hex'), u.id,
       now() - interval '20 days'
  from public.users u where u.email = 'demo@opshub.test';
select pg_temp.seed_auth_user('d0000000-0000-4000-8000-000000000002', 'auditor@opshub.test', 'Avery', 'Auditor',
  jsonb_build_object('invitation_token', current_setting('seed.auditor_token')));

-- A member of the staff and a client (John Smith of Acme, the contact of two
-- quotes below) join the same way, so every role can be tried.
select set_config('seed.member_token', encode(extensions.gen_random_bytes(32), 'hex'), false);
select set_config('seed.client_token', encode(extensions.gen_random_bytes(32), 'hex'), false);
insert into public.user_invitations (account_id, email, role, first_name, last_name, token_hash, invited_by, created_at)
select u.account_id, i.email, i.role, i.first_name, i.last_name,
       encode(extensions.digest(current_setting(i.token_setting), 'sha256'), 'hex'), u.id, now() - interval '15 days'
  from public.users u
  cross join (values ('member@opshub.test', 'member', 'Morgan', 'Member', 'seed.member_token'),
                     ('john@acme.test', 'client', 'John', 'Smith', 'seed.client_token')) as i (email, role, first_name, last_name, token_setting)
 where u.email = 'demo@opshub.test';
select pg_temp.seed_auth_user('d0000000-0000-4000-8000-000000000004', 'member@opshub.test', 'Morgan', 'Member',
  jsonb_build_object('invitation_token', current_setting('seed.member_token')));
select pg_temp.seed_auth_user('d0000000-0000-4000-8000-000000000005', 'john@acme.test', 'John', 'Smith',
  jsonb_build_object('invitation_token', current_setting('seed.client_token')));

-- A pending invitation, still waiting in the outbox's world.
insert into public.user_invitations (account_id, email, role, first_name, last_name, token_hash, invited_by)
select u.account_id, 'new.hire@opshub.test', 'supplier', 'Nia', 'Newhire',
       encode(extensions.digest(extensions.gen_random_bytes(32), 'sha256'), 'hex'), u.id
  from public.users u where u.email = 'demo@opshub.test';

-- Module subscriptions: cpq and logistics active, helpdesk paused.
insert into public.account_modules (account_id, module_id, status, start_at)
select u.account_id, m.id, s.status, now() - interval '60 days'
  from public.users u
  cross join (values ('cpq', 'active'), ('logistics', 'active'), ('helpdesk', 'paused')) as s (key, status)
  join public.modules m on m.key = s.key
 where u.email = 'demo@opshub.test';

-- Bids of the RFP screen (deadlines relative to today, so days left stay meaningful).
insert into public.rfps (account_id, title, company, contact_email, value, deadline, proposal, status, decision, decision_reasons, created_at)
select u.account_id, s.title, s.company, s.email, s.value, current_date + s.due, s.proposal, s.status, s.decision, s.reasons, now() - s.age
  from public.users u
  cross join (values
    ('Enterprise Logistics Platform', 'Global Manufacturing Inc.', 'tenders@globalmfg.test', 50000000::bigint, 18,
     'A hosted logistics platform with carrier tracking.', 'Active', 'go', 'Fits our logistics module; known buyer.', interval '12 days'),
    ('Document Processing Automation', 'City Health Services', 'procurement@cityhealth.test', 12500000::bigint, 4,
     'Template-free extraction of referral letters.', 'Submitted', 'go', null, interval '20 days'),
    ('Compliance Management System', 'First National Bank', 'rfp@firstnational.test', 28000000::bigint, -3,
     'A compliance calendar with an audit trail.', 'Under Review', null, null, interval '40 days')
  ) as s (title, company, email, value, due, proposal, status, decision, reasons, age)
 where u.email = 'demo@opshub.test';

-- Leads of the Leads screen.
insert into public.leads (account_id, name, email, phone_whatsapp, company, role, source, notes, interest, status, created_at)
select u.account_id, l.name, l.email, l.phone, l.company, l.role, l.source, l.notes, l.interest, l.status, now() - l.age
  from public.users u
  cross join (values
    ('Sarah Johnson', 'sarah@techcorp.test', '+1 555 0101', 'TechCorp Solutions', 'Operations Manager', 'website',
     'Wants quotes and invoicing in one place.', array['cpq', 'helpdesk'], 'new', interval '2 hours'),
    ('Michael Chen', 'm.chen@globalfreight.test', '+1 555 0102', 'Global Freight Inc', 'Logistics Director', 'referral',
     'Referred by Northwind.', array['logistics'], 'qualified', interval '2 days'),
    ('Emma Williams', 'emma@greenleaf.test', '+44 20 7946 0103', 'GreenLeaf Energy', 'Compliance Officer', 'linkedin',
     null, array['compliance', 'doc2data'], 'contacted', interval '5 days'),
    ('Carlos Rivera', 'carlos@buildright.test', '+34 600 000 104', 'BuildRight Construction', 'Procurement Lead', 'event',
     'Met at the logistics expo.', array['rfp'], 'new', interval '9 days'),
    ('Priya Patel', 'priya@medisupply.test', null, 'MediSupply Co', 'CFO', 'email',
     'Budget frozen until next quarter.', array['cpq'], 'lost', interval '21 days')
  ) as l (name, email, phone, company, role, source, notes, interest, status, age)
 where u.email = 'demo@opshub.test';

-- Two clients (contacts), then quotes with one line item each.
insert into public.contacts (account_id, name, email, phone, company, role, notes, is_primary, created_at)
select u.account_id, c.name, c.email, c.phone, c.company, c.role, c.notes, true, now() - c.age
  from public.users u
  cross join (values
    ('John Smith', 'john@acme.test', '+1 555 0111', 'Acme Corporation', 'Purchasing Manager', 'Key account.', interval '40 days'),
    ('Lisa Brown', 'lisa@brownlogistics.test', '+1 555 0112', 'Brown Logistics', 'Owner', null, interval '25 days')
  ) as c (name, email, phone, company, role, notes, age)
 where u.email = 'demo@opshub.test';

insert into public.quotes (account_id, contact_id, created_by, currency, subtotal, total, expires_at, notes, status, created_at)
select u.account_id, c.id, u.id, q.currency, q.qty * q.unit_price, q.qty * q.unit_price,
       now() - q.age + interval '30 days', q.notes, q.status, now() - q.age
  from public.users u
  join (values
    ('john@acme.test', 'USD', 12, 29900, 'Annual CPQ licence', 'signed', interval '20 days'),
    ('lisa@brownlogistics.test', 'USD', 1, 30000, 'Logistics onboarding and data mapping', 'sent', interval '6 days'),
    ('john@acme.test', 'EUR', 3, 45000, 'Helpdesk seats', 'draft', interval '1 day')
  ) as q (contact_email, currency, qty, unit_price, notes, status, age) on true
  join public.contacts c on c.email = q.contact_email and c.account_id = u.account_id
 where u.email = 'demo@opshub.test'
 order by q.age desc;

insert into public.quote_items (quote_id, description, qty, unit_price, total)
select q.id, q.notes, (q.total / i.unit_price)::integer, i.unit_price, q.total
  from public.quotes q
  join (values ('Annual CPQ licence', 29900), ('Logistics onboarding and data mapping', 30000), ('Helpdesk seats', 45000))
       as i (notes, unit_price) on i.notes = q.notes
 where q.account_id = (select account_id from public.users where email = 'demo@opshub.test');

-- One template per type.
insert into public.templates (account_id, name, type, subject, content, variables, created_by)
select u.account_id, t.name, t.type, t.subject, t.content, t.variables::jsonb, u.id
  from public.users u
  cross join (values
    ('Quote follow-up', 'email', 'Your quote {{quote_number}}',
     'Hi {{contact_name}}, just checking in on quote {{quote_number}}. Let us know if you have any questions.',
     '{"contact_name": "Client name", "quote_number": "Quote number"}'),
    ('Standard quote', 'quote', null, 'Quote for {{company}}: {{description}}, valid for {{days}} days.', '{"company": "", "description": "", "days": "30"}'),
    ('Invoice reminder', 'invoice', null, 'Invoice {{invoice_number}} of {{amount}} is due on {{due_date}}.', null),
    ('Service agreement', 'contract', null, 'This agreement is made between {{company}} and OpsHub Pro.', '{"company": ""}')
  ) as t (name, type, subject, content, variables)
 where u.email = 'demo@opshub.test';

-- Integrations, with the config shapes the settings screen prefills (docs/product-guide.md).
insert into public.integrations (account_id, name, type, config, is_active, created_by)
select u.account_id, i.name, i.type, i.config::jsonb, i.is_active, u.id
  from public.users u
  cross join (values
    ('Company SMTP', 'email',
     '{"smtp_host": "127.0.0.1", "smtp_port": 54325, "smtp_user": "mailer@opshub.test", "smtp_password": "", "from_email": "hello@opshub.test"}', true),
    ('Stripe payments', 'payment', '{"api_key": "", "webhook_secret": "", "currency": "USD"}', false)
  ) as i (name, type, config, is_active)
 where u.email = 'demo@opshub.test';
-- The demo account's mail goes through its own SMTP server (the local backend's listener): an explicit route.
update public.integrations i set is_default_mail_route = true
  from public.users u
 where u.email = 'demo@opshub.test' and i.account_id = u.account_id and i.name = 'Company SMTP';

-- The tender radar's demo feed (decision 092): the local backend's own OCDS package (supabase/local/demo-tenders.ts;
-- a backend on another port points the source at itself), fetched by the first feed run of npm start, which the
-- local stack allows by name (FEED_ALLOW_HOSTS); production refuses loopback feeds. A saved search that matches
-- some of its notices, one of them well enough for an immediate mail to Dana.
insert into public.tender_sources (account_id, name, url, format, created_by)
select u.account_id, 'Contracts Finder (demo)', 'http://127.0.0.1:54321/_demo/tenders.json', 'ocds', u.id
  from public.users u
 where u.email = 'demo@opshub.test';
insert into public.tender_searches (account_id, name, keywords, cpv_codes, countries, min_value, min_currency, horizon_days, created_by)
select u.account_id, 'IT and cloud', array['cloud hosting', 'kubernetes', 'software'], array['72000000', '48000000'], array['GB'],
       10000000, 'GBP', 90, u.id
  from public.users u
 where u.email = 'demo@opshub.test';

-- Invoices in every state, all in the account's currency, made as Dana
-- through the same triggers and functions the app uses: numbers come from the
-- account's gapless counter (created oldest first, so the numbers follow the
-- dates and the next invoice made in the app takes the next number), amounts
-- are computed from the items, payments go through record_payment (the
-- invoice follows: part paid, paid) and the void through void_invoice. Sent
-- invoices are marked sent rather than sent through send_invoice, which would
-- queue a mail to the client on the first start. The newest is the signed
-- quote's "Convert to invoice", a draft.
create temporary table seed_invoices (key text primary key, id uuid not null);
with spec (key, contact_email, tax_rate, discount, terms, age, notes) as (
  values
    ('paid', 'lisa@brownlogistics.test', 8.25, 0, 30, interval '75 days', 'Onboarding of the Brown Logistics depots.'),
    ('void', 'john@acme.test', 0, 0, 30, interval '60 days', 'Issued twice by mistake; voided.'),
    ('overdue', 'john@acme.test', 0, 5, 30, interval '45 days', 'Quarterly support, July to September. 5% loyalty discount.'),
    ('partial', 'lisa@brownlogistics.test', 8.25, 0, 30, interval '20 days', 'Route planning, phase one. Half now, half on delivery.'),
    ('sent', 'john@acme.test', 0, 0, 30, interval '6 days', 'Helpdesk seats for the support team.')
),
made as (
  insert into public.invoices (account_id, contact_id, created_by, client_name, client_email, currency, tax_rate, discount,
                               due_date, notes, created_at)
  select u.account_id, c.id, u.id, c.name, c.email, a.default_currency, s.tax_rate, s.discount,
         (now() - s.age)::date + s.terms, s.notes, now() - s.age
    from spec s
    join public.users u on u.email = 'demo@opshub.test'
    join public.accounts a on a.id = u.account_id
    join public.contacts c on c.account_id = u.account_id and c.email = s.contact_email
   order by s.age desc
  returning id, notes
)
insert into seed_invoices (key, id)
select s.key, m.id from made m join spec s on s.notes = m.notes;

insert into public.invoice_items (invoice_id, description, qty, unit_price, total, position)
select si.id, i.description, i.qty, i.unit_price, 0, i.position
  from (values
    ('paid', 0, 'Logistics onboarding workshop (2 days)', 1, 240000),
    ('paid', 1, 'Depot data import and mapping', 3, 45000),
    ('void', 0, 'Helpdesk seats, monthly', 3, 4500),
    ('overdue', 0, 'Priority support, per month', 3, 60000),
    ('overdue', 1, 'Workflow automation set-up', 1, 85000),
    ('partial', 0, 'Route planning consultancy, per day', 4, 95000),
    ('partial', 1, 'Carrier rate import', 1, 30000),
    ('sent', 0, 'Helpdesk seats, monthly', 5, 4500)
  ) as i (key, position, description, qty, unit_price)
  join seed_invoices si on si.key = i.key;

update public.invoices v set status = 'sent', sent_at = v.created_at + interval '1 hour'
  from seed_invoices si where si.id = v.id and si.key <> 'draft';
-- Past its due date: the daily sweep made it overdue and has reminded the client (the next reminder is a week on).
-- The sweep is the jobs runner's work, so it is done as the service role with no user: its history reads 'System'.
select set_config('request.jwt.claims', '{"role": "service_role"}', false);
update public.invoices v set status = 'overdue', reminded_at = now() - interval '1 day'
  from seed_invoices si where si.id = v.id and si.key = 'overdue';
select pg_temp.act_as('d0000000-0000-4000-8000-000000000001');

-- Paid: a deposit by card, then the rest by wire a day after the due date. Part paid: half of it.
select public.record_payment(id, 200000, (now() - interval '50 days')::date, 'card', 'Deposit')
  from seed_invoices where key = 'paid';
select public.record_payment(v.id, v.total - v.amount_paid, (now() - interval '44 days')::date, 'bank_transfer', 'Wire BL-20391')
  from public.invoices v join seed_invoices si on si.id = v.id where si.key = 'paid';
select public.record_payment(v.id, v.total / 2, (now() - interval '12 days')::date, 'bank_transfer', 'Wire BL-20577')
  from public.invoices v join seed_invoices si on si.id = v.id where si.key = 'partial';

select public.void_invoice(id) from seed_invoices where key = 'void';

-- The signed quote, converted: a draft invoice with the quote's items, due in 30 days.
insert into seed_invoices (key, id)
select 'draft', (public.convert_quote_to_invoice(q.id)).id
  from public.quotes q
 where q.account_id = (select account_id from public.users where email = 'demo@opshub.test') and q.status = 'signed';
drop table seed_invoices;

-- Bills: two supplier invoices the account recorded, one still to pay (due in ten days), one paid.
insert into public.bills (account_id, supplier_name, supplier_email, number, issue_date, due_date, currency,
                          subtotal, tax, total, status, paid_on, notes, created_at)
select u.account_id, b.supplier, b.email, b.number, (now() - b.age)::date, (now() - b.age)::date + 30, a.default_currency,
       b.subtotal, b.tax, b.subtotal + b.tax, b.status, case when b.status = 'paid' then (now() - b.age)::date + 12 end,
       b.notes, now() - b.age
  from (values
    ('Metro Office Supply', 'billing@metro-office.test', 'MOS-88120', interval '20 days', 42000, 3465, 'to_pay', 'Printer toner and paper for the depot office.'),
    ('CloudHost GmbH', 'invoices@cloudhost.test', 'CH-2026-0412', interval '40 days', 19900, 0, 'paid', 'Hosting, October.')
  ) as b (supplier, email, number, age, subtotal, tax, status, notes)
  join public.users u on u.email = 'demo@opshub.test'
  join public.accounts a on a.id = u.account_id;

-- Compliance (issue 37): three obligations named after real NIST SP 800-53 Rev. 5 controls (public
-- domain), one reviewed yesterday; their occurrences and statuses are the database's.
insert into public.compliance_items (account_id, title, category, risk_level, responsible_team, owner_id, frequency,
                                     first_review_date, description, requirements, created_at)
select u.account_id, c.title, c.category, c.risk, c.team, u.id, c.frequency, (now() + c.first_in)::date, c.description,
       c.requirements, now() - interval '60 days'
  from (values
    ('AC-2 Account Management review', 'security', 'high', 'IT Security', 'quarterly', interval '12 days',
     'Review the accounts of every system: who has one, with which rights, and remove those no longer needed.',
     'NIST SP 800-53 Rev. 5 AC-2: define and document account types, review accounts for compliance with account management requirements.'),
    ('AU-6 Audit Record Review', 'security', 'medium', 'IT Security', 'monthly', interval '-2 days',
     'Read the audit records of the month for unusual activity and report what was found.',
     'NIST SP 800-53 Rev. 5 AU-6: review and analyze system audit records for indications of inappropriate or unusual activity.'),
    ('CP-9 System Backup test', 'security', 'high', 'Operations', 'semiannual', interval '40 days',
     'Restore a backup to a test system and check it is complete.',
     'NIST SP 800-53 Rev. 5 CP-9: conduct backups of user-level and system-level information and protect their confidentiality and integrity.')
  ) as c (title, category, risk, team, frequency, first_in, description, requirements)
  join public.users u on u.email = 'demo@opshub.test';
select public.record_compliance_review(i.id, current_date - 1, 'Compliant', 'Audit records of the month read; nothing unusual.')
  from public.compliance_items i
 where i.title = 'AU-6 Audit Record Review'
   and i.account_id = (select account_id from public.users where email = 'demo@opshub.test');

-- A small real control catalogue (decision 063): five controls of NIST SP 800-53 Rev. 5 as its OSCAL
-- catalogue states them (public domain; tests/fixtures/oscal-sp800-53-rev5-excerpt.json is the same
-- excerpt as an OSCAL file), AC-2, AU-6 and CP-9 mapped to the obligations above.
select public.import_compliance_catalogue(
  'NIST Special Publication 800-53 Revision 5: Security and Privacy Controls for Information Systems and Organizations (excerpt)',
  '5.0.1', '1.0.0', '613fca2d-704a-42e7-8e2b-b206fb92b456', $json$[
    {"key": "ac-2", "label": "AC-2", "family": "Access Control", "title": "Account Management",
     "statement": "a. Define and document the types of accounts allowed and specifically prohibited for use within the system;"},
    {"key": "au-6", "label": "AU-6", "family": "Audit and Accountability", "title": "Audit Record Review, Analysis, and Reporting",
     "statement": "a. Review and analyze system audit records [organization-defined frequency] for indications of inappropriate or unusual activity and the potential impact of the inappropriate or unusual activity;"},
    {"key": "cp-9", "label": "CP-9", "family": "Contingency Planning", "title": "System Backup",
     "statement": "a. Conduct backups of user-level information contained in system components;"},
    {"key": "ia-2", "label": "IA-2", "family": "Identification and Authentication", "title": "Identification and Authentication (Organizational Users)",
     "statement": "Uniquely identify and authenticate organizational users and associate that unique identification with processes acting on behalf of those users."},
    {"key": "si-2", "label": "SI-2", "family": "System and Information Integrity", "title": "Flaw Remediation",
     "statement": "a. Identify, report, and correct system flaws;"}
  ]$json$::jsonb);
insert into public.compliance_item_controls (account_id, item_id, control_id)
select i.account_id, i.id, c.id
  from public.compliance_items i
  join public.compliance_controls c on c.account_id = i.account_id and c.label = split_part(i.title, ' ', 1)
 where i.account_id = (select account_id from public.users where email = 'demo@opshub.test');

-- Logistics (issue 36, decision 077): purchase orders and shipments with their
-- tracking, dates relative to today. Orders are made through the app's
-- function (numbers from the account's counter) and marked sent rather than
-- sent through send_purchase_order, and the shipments' events are written as
-- they stand: sending or delivering would queue mail to the suppliers and
-- clients on the first start. One order is received through the app's
-- function (its inbound shipment and what arrived).
select pg_temp.act_as('d0000000-0000-4000-8000-000000000001');
create temporary table seed_pos (key text primary key, id uuid not null);
insert into seed_pos (key, id)
select s.key, (public.create_purchase_order(s.supplier, s.email, a.default_currency, (now() + s.expected)::date, s.notes, s.items)).id
  from (values
    ('received', 'Pacific Pallet Co', 'orders@pacificpallet.test', interval '-5 days', 'Standard EUR pallets for the Chicago depot.',
     '[{"description": "EUR pallet, 1200 × 800 mm", "qty": 40, "unit_price": 1850}, {"description": "Stretch film roll", "qty": 12, "unit_price": 2400}]'::jsonb),
    ('confirmed', 'Nordic Packaging AB', 'sales@nordicpack.test', interval '4 days', 'Deliver to dock 2, weekdays 8:00 to 16:00.',
     '[{"description": "Corrugated box, double wall", "qty": 500, "unit_price": 120}, {"description": "Packing tape, 66 m", "qty": 48, "unit_price": 350}]'::jsonb),
    ('draft', 'Metro Office Supply', 'billing@metro-office.test', interval '14 days', null,
     '[{"description": "Thermal label roll, 100 × 150 mm", "qty": 30, "unit_price": 1290}]'::jsonb)
  ) as s (key, supplier, email, expected, notes, items)
  join public.users u on u.email = 'demo@opshub.test'
  join public.accounts a on a.id = u.account_id;
update public.purchase_orders p
   set status = 'sent', sent_at = now() - case k.key when 'received' then interval '12 days' else interval '3 days' end
  from seed_pos k where k.id = p.id and k.key in ('received', 'confirmed');
select public.confirm_purchase_order(id) from seed_pos where key in ('received', 'confirmed');
select public.receive_purchase_order(id) from seed_pos where key = 'received';

-- Shipments: each with the events that brought it where it is (the status is the newest event's).
create temporary table seed_shipments (key text primary key, id uuid not null);
with made as (
  insert into public.shipments (account_id, tracking_number, carrier, origin, destination, weight, weight_unit,
                                length, width, height, dimension_unit, description, special_instructions, direction,
                                purchase_order_id, contact_id, status, status_at, estimated_delivery, delivered_at, created_at)
  select u.account_id, s.number, s.carrier, s.origin, s.destination, s.weight, s.unit, s.l, s.w, s.h, s.dim, s.description,
         s.instructions, s.direction, (select id from seed_pos where key = s.po), c.id, s.status, now() - s.status_age,
         (now() + s.eta)::date, case when s.status = 'Delivered' then now() - s.status_age end, now() - s.age
    from (values
      ('transit', '1ZOPS4F8300001', 'ups', 'Chicago, IL', 'New York, NY', 18.5, 'kg', 60, 40, 40, 'cm',
       'Depot scanners and docking stations', null, 'outbound', null, 'john@acme.test', 'In Transit', interval '3 days', interval '20 hours', interval '1 day'),
      ('delivered', 'JDOPS0146002817', 'dhl', 'Chicago, IL', 'Dallas, TX', 42, 'kg', 120, 80, 60, 'cm',
       'Route planning kit, one pallet', 'Call the depot before delivery.', 'outbound', null, 'lisa@brownlogistics.test', 'Delivered', interval '8 days', interval '3 days', interval '-3 days'),
      ('exception', '7946OPS4479013', 'fedex', 'Chicago, IL', 'Houston, TX', 6.2, 'lb', null, null, null, null,
       'Replacement label printer', null, 'outbound', null, 'lisa@brownlogistics.test', 'Exception', interval '4 days', interval '1 day', interval '2 days'),
      ('processing', 'SHP-OPS7C21A9F04', 'other', 'Chicago, IL', 'Milwaukee, WI', 3, 'kg', null, null, null, null,
       'Signed service agreements (courier)', null, 'outbound', null, null, 'Processing', interval '2 hours', interval '2 hours', interval '1 day'),
      ('inbound', '1ZOPS4F8300002', 'ups', 'Nordic Packaging AB', 'Our warehouse', 310, 'kg', null, null, null, null,
       'Shipped against the Nordic Packaging order', null, 'inbound', 'confirmed', null, 'In Transit', interval '2 days', interval '1 day', interval '3 days')
    ) as s (key, number, carrier, origin, destination, weight, unit, l, w, h, dim, description, instructions, direction, po,
            contact_email, status, age, status_age, eta)
    join public.users u on u.email = 'demo@opshub.test'
    left join public.contacts c on c.account_id = u.account_id and c.email = s.contact_email
  returning id, tracking_number
)
insert into seed_shipments (key, id)
select case m.tracking_number when '1ZOPS4F8300001' then 'transit' when 'JDOPS0146002817' then 'delivered'
         when '7946OPS4479013' then 'exception' when 'SHP-OPS7C21A9F04' then 'processing' else 'inbound' end, m.id
  from made m;

insert into public.tracking_events (account_id, shipment_id, occurred_at, location, status, description, source)
select s.account_id, s.id, now() - e.age, e.location, e.status, e.description, 'manual'
  from (values
    ('transit', interval '3 days', 'Chicago, IL', 'Processing', 'Shipment created'),
    ('transit', interval '2 days', 'Chicago, IL', 'In Transit', 'Picked up by UPS'),
    ('transit', interval '20 hours', 'Columbus, OH', 'In Transit', 'Arrived at UPS facility'),
    ('delivered', interval '8 days', 'Chicago, IL', 'Processing', 'Shipment created'),
    ('delivered', interval '7 days', 'Chicago, IL', 'In Transit', 'Picked up by DHL'),
    ('delivered', interval '5 days', 'Memphis, TN', 'In Transit', 'Departed DHL hub'),
    ('delivered', interval '3 days', 'Dallas, TX', 'Delivered', 'Delivered, signed by R. Brown'),
    ('exception', interval '4 days', 'Chicago, IL', 'Processing', 'Shipment created'),
    ('exception', interval '3 days', 'Chicago, IL', 'In Transit', 'Picked up by FedEx'),
    ('exception', interval '1 day', 'Houston, TX', 'Exception', 'Delivery attempted: business closed'),
    ('processing', interval '2 hours', 'Chicago, IL', 'Processing', 'Shipment created'),
    ('inbound', interval '2 days', 'Malmö, SE', 'Processing', 'Shipment created'),
    ('inbound', interval '1 day', 'Hamburg, DE', 'In Transit', 'In transit to the destination country')
  ) as e (key, age, location, status, description)
  join seed_shipments k on k.key = e.key
  join public.shipments s on s.id = k.id;
drop table seed_shipments;
drop table seed_pos;

-- Northwind Traders: a second tenant on a trial, with rows of its own.
select pg_temp.seed_auth_user('d0000000-0000-4000-8000-000000000003', 'admin@northwind.test', 'Nora', 'Northwind', '{}');
select pg_temp.act_as('d0000000-0000-4000-8000-000000000003');
update public.accounts
   set name = 'Northwind Traders',
       billing_email = 'billing@northwind.test',
       country = 'GB',
       default_currency = 'GBP',
       timezone = 'Europe/London',
       created_at = '2025-03-03 09:00:00+00',
       trial_ends_at = now() + interval '10 days'
 where id = (select account_id from public.users where email = 'admin@northwind.test');

insert into public.leads (account_id, name, email, company, source, interest, status)
select account_id, 'Oliver Grant', 'oliver@harbourfoods.test', 'Harbour Foods', 'website', array['logistics'], 'new'
  from public.users where email = 'admin@northwind.test';
insert into public.contacts (account_id, name, email, company, is_primary)
select account_id, 'Grace Hall', 'grace@harbourfoods.test', 'Harbour Foods', true
  from public.users where email = 'admin@northwind.test';
insert into public.quotes (account_id, contact_id, currency, subtotal, total, status, expires_at)
select u.account_id, c.id, 'GBP', 50000, 50000, 'draft', now() + interval '14 days'
  from public.users u join public.contacts c on c.account_id = u.account_id
 where u.email = 'admin@northwind.test';
-- Its own invoice book: numbered from its own counter, in pounds, through the New Invoice dialog's function.
select public.create_invoice('Grace Hall', 'grace@harbourfoods.test', 'Cold-chain route survey', 125000, 1, a.default_currency,
                             (now() + interval '30 days')::date)
  from public.users u join public.accounts a on a.id = u.account_id
 where u.email = 'admin@northwind.test';
insert into public.account_modules (account_id, module_id, status)
select u.account_id, m.id, 'trial'
  from public.users u join public.modules m on m.key = 'logistics'
 where u.email = 'admin@northwind.test';

-- The helpdesk (decision 060): the demo account's inbound mailbox (local: mail
-- to demo-inbox@… or a hook signed with this secret) and a few conversations,
-- received as mail is, one of them answered and one resolved. Mail arrives
-- through the Worker as the service role, acting for no one.
select set_config('request.jwt.claims', '{"role": "service_role"}', false);
insert into private.inbound_mailboxes (account_id, local_part, secret)
select u.account_id, 'demo-inbox', 'local-demo-inbound-secret-0123456789abcdef'
  from public.users u where u.email = 'demo@opshub.test';
select public.receive_email('demo-inbox@inbound.opshub.test', m.from_email, m.from_name, m.subject, m.body, m.message_id)
  from (values
    ('john@acme.test', 'John Smith', 'Delivery window for order 1042', 'Hello, can the next delivery arrive before 10am on Thursday? Our dock is closed in the afternoon.', '<seed-1@acme.test>'),
    ('lisa@brownlogistics.test', 'Lisa Brown', 'Invoice question', 'Hi, the last invoice shows two lines for the same pallet. Could you check?', '<seed-2@brownlogistics.test>'),
    ('sam@newcustomer.test', 'Sam Carter', 'Pricing for 50 seats', 'We are looking at the helpdesk module for 50 agents. Is there a volume price?', '<seed-3@newcustomer.test>')
  ) as m (from_email, from_name, subject, body, message_id);
-- Dana answered Lisa and resolved her conversation.
select pg_temp.act_as('d0000000-0000-4000-8000-000000000001');
update public.conversations v set unread = false, status = 'resolved'
  from public.messages m where m.conversation_id = v.id and m.external_id = '<seed-2@brownlogistics.test>';
insert into public.messages (account_id, conversation_id, direction, body, sender_name, author_id, delivery_status, sent_at)
select v.account_id, v.id, 'outbound', 'Thanks Lisa, you are right: we have sent a corrected invoice.', 'Demo Admin', u.id, 'sent', now()
  from public.conversations v join public.messages m on m.conversation_id = v.id
  join public.users u on u.account_id = v.account_id and u.email = 'demo@opshub.test'
 where m.external_id = '<seed-2@brownlogistics.test>';

select set_config('request.jwt.claims', '', false);

-- Automations (decisions 067, 080): three of Dana's workflows. The active one
-- gives each lead of the demo a task when it is from TechCorp: its runs are
-- real (run_automations over the leads' lead_created events), one succeeded
-- (a task in Dana's 'My tasks'), the others skipped by its condition.
select pg_temp.act_as('d0000000-0000-4000-8000-000000000001');
insert into public.automations (account_id, name, description, trigger_kind, frequency, status, action_kind, action_settings, conditions)
select u.account_id, a.name, a.description, a.trigger_kind, a.frequency, a.status, a.action_kind, a.settings::jsonb, a.conditions::jsonb
  from public.users u
  cross join (values
    ('Follow up TechCorp leads', 'A task to call each new lead from TechCorp.', 'lead_created', null, 'active', 'assign_task',
     '{"assignee_id": "' || (select id from public.users where email = 'demo@opshub.test') || '", "title": "Call {{name}} about their enquiry"}',
     '[{"field": "email", "operator": "contains", "value": "techcorp"}]'),
    ('Draft invoice on acceptance', 'A draft invoice for each accepted quote.', 'quote_accepted', null, 'draft', 'create_invoice', '{}', '[]'),
    ('Weekly sales report', 'The sales report, mailed on Mondays at 09:00.', 'scheduled_time', 'weekly', 'paused', 'generate_report',
     '{"report_type": "sales", "format": "pdf", "date_range": "last_7_days"}', '[]')
  ) as a (name, description, trigger_kind, frequency, status, action_kind, settings, conditions)
 where u.email = 'demo@opshub.test';
select set_config('request.jwt.claims', '', false);
update public.automations a set active_since = (select min(e.created_at) from public.events e where e.account_id = a.account_id and e.kind = 'lead_created')
 where a.name = 'Follow up TechCorp leads' and a.account_id = (select account_id from public.users where email = 'demo@opshub.test');
select count(*) from public.run_automations(100);

-- The demo people have been here before: their dashboard says 'Welcome back,'
-- (a first session, with no earlier sign-in, says 'Welcome,').
update public.users set last_login_at = now() - interval '1 day' where email like '%.test';

-- GoTrue also keeps an email identity per user, and hosted GoTrue cannot read
-- NULL token columns; fill whichever of these the auth schema has.
do $$
declare
  v_column text;
begin
  foreach v_column in array array['email_change', 'email_change_token_new', 'email_change_token_current',
                                  'phone_change', 'phone_change_token', 'reauthentication_token'] loop
    if exists (select 1 from information_schema.columns
               where table_schema = 'auth' and table_name = 'users' and column_name = v_column) then
      execute format('update auth.users set %I = coalesce(%I, %L) where email like %L',
                     v_column, v_column, '', '%.test');
    end if;
  end loop;
  if to_regclass('auth.identities') is not null then
    execute $sql$
      insert into auth.identities (user_id, provider_id, provider, identity_data, created_at, updated_at)
      select u.id, u.id::text, 'email',
             jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true, 'phone_verified', false),
             now(), now()
        from auth.users u
       where u.email like '%.test'
         and not exists (select 1 from auth.identities i where i.user_id = u.id)
    $sql$;
  end if;
end
$$;
