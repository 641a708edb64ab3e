// Runs the hostile cases of support/hostile.ts against the built Worker.
//
// The actors are two fresh tenants (A and B, each an admin, a client member
// and a template, an integration and an open invitation) plus the master
// account's admin for the website settings. Fresh tenants, not the demo ones,
// because other Worker test files write to the demo accounts and may run at
// the same time: "no row changed" is checked on every row of A and B (and of
// their users' auth records), and anywhere in the database for the marker
// 'hostile-probe' that every valid form carries. The other-tenant cases are
// also sent between the demo tenants (OpsHub's admin with Northwind's ids and
// the other way round); there the rows aimed at are watched one by one.
import { randomToken, tokenHash } from '../../../supabase/functions/_shared/token';
import { newLinkToken } from '../../../app/lib/link-token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, signIn, signUpFreshAdmin, Visitor } from './app';
import { runSql, serviceClient } from './backend';
import { encodeBody, hostileCases, loadFiles, type Actor, type HostileAction, type HostileCase } from './hostile';
import { profileOf } from './settings';
import { workerFetch, workerScheduled } from './worker';
import { DEMO_ADMIN, DEMO_NORTHWIND_ADMIN } from '../../support/accounts';

const CROSS_ORIGIN_MESSAGE = 'This form was sent from another site and has been refused.';
const MARKER = 'hostile-probe';

interface Tenant {
  accountId: string;
  admin: Visitor;
  adminAuthId: string;
  member: { visitor: Visitor; email: string; password: string; token: string };
  rows: { template: string; integration: string; member: string; invitation: string; lead: string; contact: string; quote: string; invoice: string; 'sent-invoice': string; document: string; bill: string; conversation: string; compliance: string; control: string; shipment: string; 'purchase-order': string; automation: string; rfp: string; 'canned-reply': string; 'tender-source': string; 'tender-search': string; opportunity: string; 'rfp-answer': string; 'rfp-file': string };
  /** An open invitation's token (the accept-invitation cases post to it). */
  token: string;
  /** The token of an invitation already accepted (its member's). */
  usedToken: string;
  /** The link token of a sent (and viewed) quote (the public quote page's cases post to it). */
  quoteToken: string;
  /** A CSAT link of the fixture conversation (decision 075). */
  csatToken: string;
}

type Rows = Tenant['rows'];

/** A demo tenant: its admin signed in and the ids of its rows (those it has). */
interface DemoTenant {
  admin: Visitor;
  rows: Partial<Rows>;
}

interface Fixture {
  a: Tenant;
  b: Tenant;
  /** The master account's admin (demo@opshub.test). */
  master: Visitor;
  opshub: DemoTenant;
  northwind: DemoTenant;
  module: string;
  /** A session cookie header whose user has since signed out. */
  replayed: string;
}


async function insert<T extends { id: string }>(table: string, row: Record<string, unknown>): Promise<T> {
  const { data, error } = await serviceClient().from(table).insert(row).select('*').single();
  if (error) throw new Error(`${table}: ${error.message}`);
  return data as T;
}

async function invitation(accountId: string, role: string): Promise<{ id: string; token: string; email: string }> {
  const email = `invited-${crypto.randomUUID().slice(0, 8)}@${MARKER}-fixture.test`;
  const token = randomToken();
  const row = await insert<{ id: string }>('user_invitations', {
    account_id: accountId,
    email,
    role,
    token_hash: await tokenHash(token),
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  return { id: row.id, token, email };
}

/** Adds a member through the real invitation acceptance and signs them in. */
async function join(accountId: string, role: string): Promise<{ visitor: Visitor; email: string; password: string; token: string }> {
  const { token, email } = await invitation(accountId, role);
  const password = 'member-pass';
  const accepted = await new Visitor().post(`/invite/${token}`, { password, confirm_password: password });
  if (accepted.status !== 302) throw new Error(`accepting a ${role} invitation failed: ${accepted.status}`);
  return { visitor: await signIn({ email, password }), email, password, token };
}

async function tenant(): Promise<Tenant> {
  const admin = await signUpFreshAdmin({ first_name: 'Hostile', last_name: 'Admin' });
  const profile = await profileOf(admin.email);
  const accountId = profile.account_id;
  const member = await join(accountId, 'client');
  const memberProfile = await profileOf(member.email);
  const template = await insert('templates', { account_id: accountId, name: 'Fixture template', type: 'email', subject: 'Hi', content: 'Body' });
  const integration = await insert('integrations', { account_id: accountId, name: 'Fixture CRM', type: 'crm', config: { api_key: 'k' } });
  const open = await invitation(accountId, 'auditor');
  const lead = await insert('leads', { account_id: accountId, name: 'Fixture lead', email: 'lead@fixture.test', company: 'Fixture Co' });
  const contact = await insert('contacts', { account_id: accountId, name: 'Fixture client', email: 'client@fixture.test' });
  // A draft with one line, for the quote pages' actions.
  const quote = await insert('quotes', {
    account_id: accountId, contact_id: contact.id, status: 'draft', subtotal: 1000, total: 1000,
    expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  });
  await insert('quote_items', { quote_id: quote.id, description: 'Fixture line', qty: 1, unit_price: 1000, total: 1000 });
  // An invoice with a balance to pay (written by the service role: the API has no insert on invoices).
  const invoice = await insert('invoices', { account_id: accountId, contact_id: contact.id, client_name: 'Fixture client', client_email: 'client@fixture.test', due_date: '2030-01-01' });
  await insert('invoice_items', { invoice_id: invoice.id, description: 'Fixture work', qty: 1, unit_price: 1_000_000, total: 0 });
  // One sent before the payment dates the cases post: a draft takes no payment.
  const sentInvoice = await insert('invoices', {
    account_id: accountId, contact_id: contact.id, client_name: 'Fixture client', client_email: 'client@fixture.test', due_date: '2030-01-01',
    status: 'sent', sent_at: '2026-01-01T00:00:00Z',
  });
  await insert('invoice_items', { invoice_id: sentInvoice.id, description: 'Fixture work', qty: 1, unit_price: 1_000_000, total: 0 });
  // A document row (its file is not needed: the page's actions change the row, and a delete tolerates a missing object).
  const document = await insert('documents', {
    account_id: accountId,
    title: 'Fixture document',
    file_path: `${accountId}/${crypto.randomUUID()}/fixture.txt`,
    file_name: 'fixture.txt',
    file_size: 10,
    mime_type: 'text/plain',
    sha256: [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join(''),
  });
  // A bill to pay, for the bill page's actions.
  const bill = await insert('bills', { account_id: accountId, supplier_name: 'Fixture supplier', number: 'FIX-1', currency: 'EUR', total: 10_000 });
  // A conversation, for its page's actions (reply, note, assign, resolve). Already read: opening
  // its page (the answer to a refused post too) marks it read, which is the page's doing, not the post's.
  const conversation = await insert('conversations', { account_id: accountId, contact_id: contact.id, subject: 'Fixture question', unread: false });
  // A compliance item, for its page's actions (record a review, add evidence).
  const compliance = await insert('compliance_items', { account_id: accountId, title: 'Fixture obligation', responsible_team: 'Fixture team', description: 'Fixture', first_review_date: '2026-01-01' });
  // A catalogue's control, for the catalogue page's "create requirements".
  const catalogue = await insert('compliance_catalogues', { account_id: accountId, title: 'Fixture catalogue', source_uuid: crypto.randomUUID() });
  const control = await insert('compliance_controls', { account_id: accountId, catalogue_id: catalogue.id, control_key: 'fx-1', label: 'FX-1', title: 'Fixture control', position: 0 });
  // A shipment on its way, for its page's actions (add an event, mark delivered).
  const shipment = await insert('shipments', { account_id: accountId, origin: 'Fixture origin', destination: 'Fixture destination', weight: 1, description: 'Fixture goods' });
  // A sent purchase order with one line, for its page's actions (send, confirm, receive, cancel).
  const purchaseOrder = await insert('purchase_orders', { account_id: accountId, supplier_name: 'Fixture supplier', supplier_email: 'supplier@fixture.test', status: 'sent' });
  await insert('purchase_order_items', { account_id: accountId, purchase_order_id: purchaseOrder.id, description: 'Fixture part', qty: 2, unit_price: 500 });
  // An automation (a draft), for its page's actions (activate, pause, delete).
  const automation = await insert('automations', { account_id: accountId, name: 'Fixture automation', trigger_kind: 'lead_created', action_kind: 'update_status', action_settings: { status: 'qualified' } });
  // A bid, for its page's actions (edit, status, go/no-go, delete).
  const rfp = await insert('rfps', { account_id: accountId, title: 'Fixture tender', company: 'Fixture buyer', contact_email: 'bids@fixture.test', value: 100, deadline: '2030-01-01', proposal: 'Fixture' });
  // A canned reply, for the library's edit and delete and the conversation's Insert (decision 076).
  const cannedReply = await insert('canned_replies', { account_id: accountId, name: 'Fixture answer', body: 'Fixture' });
  // The radar's rows, for its actions (a feed and a search edited or deleted, an opportunity dismissed).
  const tenderSource = await insert('tender_sources', { account_id: accountId, name: 'Fixture feed', url: `https://feeds.fixture.test/${accountId}.json`, format: 'ocds' });
  const tenderSearch = await insert('tender_searches', { account_id: accountId, name: 'Fixture search', keywords: ['fixture'] });
  const ingested = await serviceClient().rpc('ingest_tender_notices', { p_source: tenderSource.id, p_notices: [{ sourceId: 'fixture-1', title: 'Fixture tender notice' }] });
  if (ingested.error) throw new Error(`ingest_tender_notices: ${ingested.error.message}`);
  const opportunity = (await serviceClient().from('opportunities').select('id').eq('source_id', tenderSource.id).single()).data as { id: string };
  // An answer of the library and a file of the bid, for their forms (decision 091).
  const rfpAnswer = await insert('rfp_answers', { account_id: accountId, title: 'Fixture answer', body: 'Fixture' });
  const rfpFile = await insert('rfp_attachments', {
    account_id: accountId, rfp_id: rfp.id, file_name: 'fixture.pdf', file_path: `${accountId}/rfp/${rfp.id}/fixture/fixture.pdf`, file_size: 10,
    mime_type: 'application/pdf', sha256: 'f'.repeat(64),
  });
  const { data: auth } = await serviceClient().from('users').select('auth_user_id').eq('id', profile.id).single();
  // A sent quote and its link, for the public quote page's actions.
  const sent = await insert('quotes', { account_id: accountId, contact_id: contact.id, status: 'sent', currency: 'USD' });
  const { data: quoteToken, error: linkError } = await serviceClient().rpc('issue_quote_link', { p_quote_id: sent.id });
  if (linkError) throw new Error(`issue_quote_link: ${linkError.message}`);
  // Opened once, as the client would: the cases then find it viewed, and a refused post changes nothing.
  await new Visitor().get(`/q/${quoteToken as string}`);
  // A CSAT link as the job leaves it, without its mail.
  const { token: csatToken, hashHex } = await newLinkToken();
  await insert('csat_responses', { conversation_id: conversation.id, account_id: accountId, token_hash: hashHex, sent_at: new Date().toISOString() });
  return {
    accountId,
    admin: admin.visitor,
    adminAuthId: (auth as { auth_user_id: string }).auth_user_id,
    member,
    rows: { template: template.id, integration: integration.id, member: memberProfile.id, invitation: open.id, lead: lead.id, contact: contact.id, quote: quote.id, invoice: invoice.id, 'sent-invoice': sentInvoice.id, document: document.id, bill: bill.id, conversation: conversation.id, compliance: compliance.id, control: control.id, shipment: shipment.id, 'purchase-order': purchaseOrder.id, automation: automation.id, rfp: rfp.id, 'canned-reply': cannedReply.id, 'tender-source': tenderSource.id, 'tender-search': tenderSearch.id, opportunity: opportunity.id, 'rfp-answer': rfpAnswer.id, 'rfp-file': rfpFile.id },
    token: open.token,
    usedToken: member.token,
    quoteToken: quoteToken as string,
    csatToken,
  };
}

async function replayedSession(accountId: string): Promise<string> {
  // A second admin of A, so that signing them out (everywhere) touches no other actor.
  const leaving = await join(accountId, 'admin');
  const cookie = leaving.visitor.cookieHeader;
  const out = await leaving.visitor.post('/auth', { intent: 'signout' });
  if (out.status !== 302) throw new Error(`sign-out failed: ${out.status}`);
  return cookie;
}

/** The seeded rows of a demo account, by kind (Northwind has only its admin). */
async function demoRows(adminEmail: string): Promise<Partial<Rows>> {
  const db = serviceClient();
  const { account_id: accountId, id: adminId } = await profileOf(adminEmail);
  const idOf = (result: { data: unknown }) => (result.data as { id: string }[] | null)?.[0]?.id;
  const rows: Partial<Rows> = {
    template: idOf(await db.from('templates').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    integration: idOf(await db.from('integrations').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    lead: idOf(await db.from('leads').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    contact: idOf(await db.from('contacts').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    quote: idOf(await db.from('quotes').select('id').eq('account_id', accountId).eq('status', 'draft').order('created_at').limit(1)),
    invoice: idOf(await db.from('invoices').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    'sent-invoice': idOf(await db.from('invoices').select('id').eq('account_id', accountId).eq('status', 'sent').order('created_at').limit(1)),
    document: idOf(await db.from('documents').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    bill: idOf(await db.from('bills').select('id').eq('account_id', accountId).eq('status', 'to_pay').order('created_at').limit(1)),
    conversation: idOf(await db.from('conversations').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    compliance: idOf(await db.from('compliance_items').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    control: idOf(await db.from('compliance_controls').select('id').eq('account_id', accountId).order('position').limit(1)),
    rfp: idOf(await db.from('rfps').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    'tender-source': idOf(await db.from('tender_sources').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    'tender-search': idOf(await db.from('tender_searches').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    opportunity: idOf(await db.from('opportunities').select('id').eq('account_id', accountId).order('first_seen_at').limit(1)),
    shipment: idOf(await db.from('shipments').select('id').eq('account_id', accountId).neq('status', 'Delivered').order('created_at').limit(1)),
    'purchase-order': idOf(await db.from('purchase_orders').select('id').eq('account_id', accountId).eq('status', 'sent').order('created_at').limit(1)),
    automation: idOf(await db.from('automations').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    'canned-reply': idOf(await db.from('canned_replies').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    'rfp-answer': idOf(await db.from('rfp_answers').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    'rfp-file': idOf(await db.from('rfp_attachments').select('id').eq('account_id', accountId).order('created_at').limit(1)),
    invitation: idOf(
      await db.from('user_invitations').select('id').eq('account_id', accountId).is('accepted_at', null).order('created_at').limit(1),
    ),
    // Another member if there is one, else the admin (aimed at from the other tenant).
    member: idOf(await db.from('users').select('id').eq('account_id', accountId).neq('id', adminId).order('created_at').limit(1)) ?? adminId,
  };
  return Object.fromEntries(Object.entries(rows).filter(([, id]) => id)) as Partial<Rows>;
}

export async function buildFixture(): Promise<Fixture> {
  await installSnapshot();
  const [a, b] = [await tenant(), await tenant()];
  const { data: modules } = await serviceClient().from('modules').select('id').order('created_at').limit(1);
  const master = await signIn(DEMO_ADMIN);
  return {
    a,
    b,
    master,
    opshub: { admin: master, rows: await demoRows(DEMO_ADMIN.email) },
    northwind: { admin: await signIn(DEMO_NORTHWIND_ADMIN), rows: await demoRows(DEMO_NORTHWIND_ADMIN.email) },
    module: (modules as { id: string }[])[0].id,
    replayed: await replayedSession(a.accountId),
  };
}

// ── Cookies ──────────────────────────────────────────────────────────────

const AUTH_COOKIE = /^(sb-.+-auth-token)(?:\.(\d+))?$/;

function cookiePairs(header: string): [string, string][] {
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]);
}

function base64url(text: string): string {
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}
function fromBase64url(text: string): string {
  return atob(text.replaceAll('-', '+').replaceAll('_', '/'));
}

/** The session stored in a visitor's (possibly chunked) auth cookie, and the cookie's name. */
function sessionIn(header: string): { name: string; session: Record<string, unknown> } {
  const chunks = cookiePairs(header)
    .map(([name, value]) => ({ match: AUTH_COOKIE.exec(name), value }))
    .filter((c) => c.match)
    .sort((x, y) => Number(x.match![2] ?? 0) - Number(y.match![2] ?? 0));
  if (chunks.length === 0) throw new Error('no auth cookie');
  const raw = decodeURIComponent(chunks.map((c) => c.value).join('')).replace(/^base64-/, '');
  return { name: chunks[0].match![1], session: JSON.parse(fromBase64url(raw)) as Record<string, unknown> };
}

function withSession(name: string, session: unknown): string {
  return `${name}=base64-${base64url(JSON.stringify(session))}`;
}

/** Forged session cookies, made from a real one. */
export function forgedCookie(kind: 'garbage' | 'edited' | 'unsigned', real: string, otherAuthId: string): string {
  const { name, session } = sessionIn(real);
  if (kind === 'garbage') return `${name}=base64-${base64url('{"access_token":"garbage","refresh_token":"garbage"')}`;
  const [header, payload, signature] = String(session.access_token).split('.');
  const claims = JSON.parse(fromBase64url(payload)) as Record<string, unknown>;
  const forgedToken =
    kind === 'edited'
      ? `${header}.${base64url(JSON.stringify({ ...claims, sub: otherAuthId }))}.${signature}`
      : `${base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url(JSON.stringify({ ...claims, exp: 4_102_444_800 }))}.`;
  // The refresh token is forged too: a real one would simply sign the real user in again.
  return withSession(name, { ...session, access_token: forgedToken, refresh_token: 'forged-refresh-token' });
}

// ── Database snapshot ────────────────────────────────────────────────────

/**
 * One superuser function (test database only) that fingerprints every row of
 * the given accounts in every table with an account_id, the accounts
 * themselves, their users' auth records and sessions, and counts the rows
 * holding the marker anywhere in the public schema and auth.users.
 *
 * The marker is caught as it is written, by a trigger on every public table
 * that notes the table in hostile_probe.marker_writes: reading every table's
 * every row as text after each case cost more than the cases themselves, and
 * grew with each module's tables and with the rows other test files write.
 * A row written with the marker and removed within the same case counts too.
 */
async function installSnapshot(): Promise<void> {
  await runSql('create schema if not exists hostile_probe');
  await runSql('create table if not exists hostile_probe.marker_writes (table_name text not null, written_at timestamptz not null default now())');
  await runSql(`
    create or replace function hostile_probe.note_marker() returns trigger language plpgsql security definer as $fn$
    begin
      if strpos(new::text, '${MARKER}') > 0 then
        insert into hostile_probe.marker_writes (table_name) values (tg_table_name);
      end if;
      return null;
    end
    $fn$
  `);
  await runSql(`
    do $do$
    declare t record;
    begin
      for t in
        select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind in ('r', 'p')
           and not exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'hostile_probe_marker')
      loop
        execute format('create trigger hostile_probe_marker after insert or update on public.%I for each row execute function hostile_probe.note_marker()', t.relname);
      end loop;
    end
    $do$
  `);
  await runSql(`
    create or replace function hostile_probe.snapshot(p_accounts uuid[], p_marker text, p_rows uuid[])
    returns table (item text, fingerprint text) language plpgsql as $fn$
    declare
      r record;
      v text;
      auth_ids uuid[] := array(select auth_user_id from public.users where account_id = any(p_accounts));
    begin
      for r in
        select t.table_name as name,
               exists (select 1 from information_schema.columns c
                        where c.table_schema = 'public' and c.table_name = t.table_name and c.column_name = 'account_id') as by_account
          from information_schema.tables t
         where t.table_schema = 'public' and t.table_type = 'BASE TABLE'
         order by t.table_name
      loop
        if r.by_account or r.name = 'accounts' then
          execute format(
            'select count(*) || '' '' || md5(coalesce(string_agg(x::text, ''|'' order by x::text), '''')) from public.%I x where %s = any($1)',
            r.name, case when r.by_account then 'account_id' else 'id' end)
            into v using p_accounts;
          item := r.name; fingerprint := v; return next;
        end if;
        select count(*)::text into v from hostile_probe.marker_writes w where w.table_name = r.name;
        item := r.name || ' holding the marker'; fingerprint := v; return next;
        if cardinality(p_rows) > 0 and exists (select 1 from information_schema.columns c
             where c.table_schema = 'public' and c.table_name = r.name and c.column_name = 'id' and c.data_type = 'uuid') then
          -- Demo rows: other test files sign their users in meanwhile, which only moves these two.
          execute format('select count(*) || '' '' || md5(coalesce(string_agg((to_jsonb(x) - ''last_login_at'' - ''updated_at'')::text, ''|'' order by x.id), '''')) from public.%I x where id = any($1)', r.name)
            into v using p_rows;
          item := r.name || ' rows aimed at'; fingerprint := v; return next;
        end if;
      end loop;
      select count(*) || ' ' || md5(coalesce(string_agg(u::text, '|' order by u.id), '')) into v from auth.users u where u.id = any(auth_ids);
      item := 'auth.users'; fingerprint := v; return next;
      select count(*)::text into v from auth.users u where strpos(u.email, p_marker) > 0;
      item := 'auth.users holding the marker'; fingerprint := v; return next;
      select count(*) || ' ' || md5(coalesce(string_agg(s.id::text, '|' order by s.id), '')) into v from auth.sessions s where s.user_id = any(auth_ids);
      item := 'auth.sessions'; fingerprint := v; return next;
    end
    $fn$;
  `);
}

/**
 * Work a case queued (an upload's extraction) runs after the response, kicked
 * by the action: it is run to its end here, so it shows as the case's own
 * change, not as a change made during the next case.
 */
async function settleJobs(accounts: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    // Due work only: a job waiting for its retry (a fixture row without a file) is not the case's doing.
    const { data } = await serviceClient()
      .from('jobs')
      .select('id')
      .in('account_id', accounts)
      .or(`status.eq.running,and(status.eq.queued,run_at.lte.${new Date().toISOString()})`)
      .limit(1);
    if (!data || data.length === 0 || Date.now() > deadline) return;
    await workerScheduled({ cron: '* * * * *', scheduledTime: Date.now() });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function snapshot(accounts: string[], watched: string[]): Promise<Record<string, string>> {
  const list = (ids: string[]) => `array[${ids.map((id) => `'${id}'`).join(',')}]::uuid[]`;
  const rows = (await runSql(`select * from hostile_probe.snapshot(${list(accounts)}, '${MARKER}', ${list(watched)})`)) as {
    item: string;
    fingerprint: string;
  }[];
  return Object.fromEntries(rows.map((row) => [row.item, row.fingerprint]));
}

function changes(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((key) => before[key] !== after[key]);
}

// ── The answer ───────────────────────────────────────────────────────────

function unescape(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .trim();
}

/** The messages a person reads on the page: field errors, the error toast, an error page's text, the CSRF refusal. */
export function messagesIn(html: string): string[] {
  const messages: string[] = [];
  for (const [, list] of html.matchAll(/<div id="[^"]*-error"[^>]*>([\s\S]*?)<\/div>/g)) {
    for (const [, text] of list.matchAll(/<p>([^<]+)<\/p>/g)) messages.push(unescape(text));
  }
  for (const [, title, description] of html.matchAll(
    /data-toast-type="error"[\s\S]*?<p class="text-sm font-semibold">([^<]*)<\/p>(?:<p class="mt-1 text-sm">([^<]*)<\/p>)?/g,
  )) {
    messages.push(unescape([title, description].filter(Boolean).join(' — ')));
  }
  const errorPage = /<h1[^>]*>Unexpected Application Error!<\/h1>\s*<p[^>]*>([\s\S]*?)<\/p>/.exec(html);
  if (errorPage) messages.push(unescape(errorPage[1].replace(/<!-- -->/g, '')));
  if (html.includes(CROSS_ORIGIN_MESSAGE)) messages.push(CROSS_ORIGIN_MESSAGE);
  return messages.filter((message) => message.length > 0);
}

const STACK_TRACE = /\n\s+at .+:\d+:\d+|\bat async\b|node_modules|\.server\.ts|TypeError|ReferenceError/;

// ── Running ──────────────────────────────────────────────────────────────

interface Context {
  fixture: Fixture;
  n: number;
}

/** Where another tenant's ids come from, for the other-tenant cases. */
type RowSource = 'own' | 'a' | 'b' | 'opshub' | 'northwind';

function visitorOf(fixture: Fixture, actor: Actor): Visitor | null {
  switch (actor) {
    case 'anonymous':
      return null;
    case 'admin':
      return fixture.a.admin;
    case 'otherAdmin':
      return fixture.b.admin;
    case 'member':
      return fixture.b.member.visitor;
    case 'master':
      return fixture.master;
    case 'northwind':
      return fixture.northwind.admin;
  }
}

function rowsOf(fixture: Fixture, actor: Actor, source: RowSource): Partial<Rows> {
  if (source === 'own') return actor === 'otherAdmin' || actor === 'member' ? fixture.b.rows : fixture.a.rows;
  return fixture[source].rows;
}

function filler(ctx: Context, rows: Partial<Rows>): (value: string) => string {
  const values: Record<string, string | undefined> = {
    n: String(ctx.n),
    ...rows,
    token: ctx.fixture.a.token,
    'used-token': ctx.fixture.a.usedToken,
    'quote-token': ctx.fixture.a.quoteToken,
    'csat-token': ctx.fixture.a.csatToken,
    module: ctx.fixture.module,
    'signin-email': ctx.fixture.a.member.email,
    'signin-password': ctx.fixture.a.member.password,
  };
  return (value) => value.replace(/\{([a-z-]+)\}/g, (whole, key: string) => values[key] ?? whole);
}

function cookieFor(ctx: Context, c: HostileCase, actor: Actor): string | null {
  const visitor = visitorOf(ctx.fixture, actor);
  const real = visitor?.cookieHeader ?? ctx.fixture.a.admin.cookieHeader;
  const otherAuthId = actor === 'otherAdmin' || actor === 'member' ? ctx.fixture.a.adminAuthId : ctx.fixture.b.adminAuthId;
  switch (c.session) {
    case 'actor':
      return visitor?.cookieHeader || null;
    case 'none':
      return null;
    case 'replayed':
      return ctx.fixture.replayed;
    case 'forged-garbage':
      return forgedCookie('garbage', real, otherAuthId);
    case 'forged-edited-jwt':
      return forgedCookie('edited', real, otherAuthId);
    case 'forged-unsigned-jwt':
      return forgedCookie('unsigned', real, otherAuthId);
  }
}

async function send(ctx: Context, c: HostileCase, actor: Actor, rows: Partial<Rows>): Promise<Response> {
  const fill = filler(ctx, rows);
  const { body, contentType } = encodeBody(c.body, fill);
  const headers = new Headers({ Origin: ORIGIN });
  if (contentType) headers.set('Content-Type', contentType);
  const cookie = cookieFor(ctx, c, actor);
  if (cookie) headers.set('Cookie', cookie);
  for (const [name, value] of Object.entries(c.headers)) {
    if (value === '') headers.delete(name);
    else headers.set(name, value);
  }
  const request = new Request(`${ORIGIN}${fill(c.path)}`, { method: 'POST', body, headers, redirect: 'manual' });
  if (!contentType) request.headers.delete('Content-Type');
  return workerFetch(request);
}

/** The toast a response flashes through remix-toast's signed cookie (the JavaScript client's path). */
export function toastCookieMessage(response: Response): string | null {
  for (const line of response.headers.getSetCookie()) {
    const match = /^toast-session=([^;.]+)\./.exec(line);
    if (!match) continue;
    const flash = JSON.parse(atob(decodeURIComponent(match[1]))) as { __flash_flash__?: { toast?: { message?: string; description?: string } } };
    const toast = flash.__flash_flash__?.toast;
    if (toast?.message) return [toast.message, toast.description].filter(Boolean).join(' — ');
  }
  return null;
}

/** Sentences in a turbo-stream answer (field errors, an error response's text): what the client shows. */
function messagesInStream(body: string): string[] {
  return [...body.matchAll(/"([A-Z][^"]*\s[^"]*)"/g)]
    .map(([, text]) => text)
    .filter((text) => !/^(Internal Server Error|Bad Request|Not Found)$/.test(text));
}

/** Checks one answer; returns what is wrong with it, or nothing. */
async function verdict(c: HostileCase, response: Response): Promise<string[]> {
  if (c.dataEndpoint) return dataVerdict(c, response);
  const problems: string[] = [];
  const html = await response.text();
  const location = response.headers.get('Location');
  if (STACK_TRACE.test(html)) problems.push('the page shows a stack trace');
  if (c.expect === 'sign-in') {
    if (response.status !== 302 || !location?.startsWith('/auth')) {
      problems.push(`expected the sign-in redirect, got ${response.status}${location ? ` → ${location}` : ''}`);
    }
    return problems;
  }
  if (response.status < 400 || response.status >= 500) {
    problems.push(`expected a 4xx, got ${response.status}${location ? ` → ${location}` : ''}`);
    return problems;
  }
  if (c.expect === 'cross-origin') {
    if (response.status !== 403 || !html.includes(CROSS_ORIGIN_MESSAGE)) problems.push(`expected the Worker's cross-origin 403, got ${response.status}`);
    return problems;
  }
  if (messagesIn(html).length === 0) problems.push(`a ${response.status} without a message a person can read`);
  return problems;
}

/** The same checks, for an answer to the JavaScript client (turbo-stream; a redirect is a 202 payload). */
async function dataVerdict(c: HostileCase, response: Response): Promise<string[]> {
  const body = await response.text();
  if (STACK_TRACE.test(body)) return ['the answer carries a stack trace'];
  if (c.expect === 'sign-in') {
    return response.status === 202 && /"redirect","\/auth/.test(body) ? [] : [`expected the sign-in redirect, got ${response.status} ${body.slice(0, 120)}`];
  }
  if (response.status < 400 || response.status >= 500) return [`expected a 4xx, got ${response.status} ${body.slice(0, 120)}`];
  if (c.expect === 'cross-origin') return response.status === 403 && body.includes(CROSS_ORIGIN_MESSAGE) ? [] : [`expected the Worker's cross-origin 403, got ${response.status}`];
  return toastCookieMessage(response) || messagesInStream(body).length > 0 ? [] : [`a ${response.status} without a message a person can read`];
}

/**
 * Declares one test per hostile case of these actions (run one after the
 * other), and an afterAll that prints how many ran.
 */
export function describeHostile(title: string, actions: readonly HostileAction[], siblings: readonly HostileAction[] = actions): void {
  const ctx = { n: 0 } as Context;
  // Another tenant's ids both ways between the fresh tenants, and between the demo ones.
  const directions: { actor: Actor | null; source: RowSource; label: string }[] = [
    { actor: null, source: 'b', label: "tenant A posts tenant B's" },
    { actor: 'otherAdmin', source: 'a', label: "tenant B posts tenant A's" },
    { actor: 'master', source: 'northwind', label: "OpsHub's admin posts Northwind's" },
    { actor: 'northwind', source: 'opshub', label: "Northwind's admin posts OpsHub's" },
  ];
  const planned = actions.flatMap((action) =>
    hostileCases(action, siblings).flatMap((c) =>
      c.kind === 'other-tenant'
        ? directions.map(({ actor, source, label }) => ({ action, c: { ...c, name: `${c.name} (${label})` }, actor: actor ?? action.actor, source }))
        : [{ action, c, actor: action.actor, source: 'own' as RowSource }],
    ),
  );
  let ran = 0;
  let baseline: Record<string, string> = {};
  let accounts: string[] = [];
  let watched: string[] = [];

  describe(title, () => {
    beforeAll(async () => {
      ctx.fixture = await buildFixture();
      accounts = [ctx.fixture.a.accountId, ctx.fixture.b.accountId];
      await loadFiles(planned.map((p) => p.c));
      await settleJobs(accounts);
      baseline = await snapshot(accounts, []);
    }, 120_000);

    afterAll(() => {
      console.log(`hostile input (${title}): ${ran} cases ran`);
    });

    for (const { action, c, actor, source } of planned) {
      it(`${action.name} — ${c.name}`, async ({ skip }) => {
        const rows = rowsOf(ctx.fixture, actor, source);
        // A demo tenant may not have a row of this kind (Northwind has no template): nothing to aim at.
        const needed = Object.values(action.fields).flatMap((field) => (field.row ? [field.row] : []));
        if (needed.some((row) => !rows[row])) return skip('that tenant has no such row');
        ctx.n += 1;
        ran += 1;
        watched = source === 'opshub' || source === 'northwind' ? needed.map((row) => rows[row]!) : [];
        if (watched.length > 0) baseline = await snapshot(accounts, watched);
        const response = await send(ctx, c, actor, rows);
        const problems = await verdict(c, response);
        await settleJobs(accounts);
        const after = await snapshot(accounts, watched);
        const changed = changes(baseline, after);
        // The next case watches no demo row (or its own): its baseline is taken without these.
        baseline = watched.length > 0 ? await snapshot(accounts, []) : after;
        if (changed.length > 0) problems.push(`rows changed: ${changed.join(', ')}`);
        if (({} as Record<string, unknown>).polluted !== undefined) problems.push('Object.prototype was polluted');
        expect(problems.join('; ')).toBe('');
      });
    }
  });
}
