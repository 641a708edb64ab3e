// The cross-tenant matrix: a user of account B tries to select, insert,
// update and delete account A's rows in every table through /rest/v1, each
// with their own token. Every attempt is refused or sees nothing, and A's
// data is byte-for-byte what it was. The relations come from the catalogue:
// a new table or view without a case here fails the suite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  accountScopedRelations, invoke, publicRelations, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend,
} from './support/backend.ts';
import { uniqueEmail } from '../support/accounts.ts';

/** Relations every account shares (read by all, written by none): checked by their own test below. */
const SHARED = ['modules'];

interface TableCase {
  table: string;
  /** A's row, as the service role sees it. */
  id: string;
  idColumn?: string;
  accountColumn?: string;
  insert: Record<string, unknown>;
  update: Record<string, unknown>;
}

let backend: TestBackend;
let a: Member;
let b: Member;
let admin: SupabaseClient;
const cases: TableCase[] = [];

/** An attachment row on A's conversation, as the Worker stores one (decision 071). */
async function attachmentOf(accountId: string): Promise<string> {
  const conversationId = await firstId('conversations', 'account_id', accountId);
  const { data, error } = await admin.from('message_attachments').insert({
    account_id: accountId, conversation_id: conversationId, message_id: await firstId('messages', 'conversation_id', conversationId),
    file_name: 'a.pdf', mime_type: 'application/pdf', size_bytes: 5, storage_path: `${accountId}/${conversationId}/tenant/a.pdf`,
  }).select('id').single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

/** A's helpdesk SLA settings, a breach, a CSAT answer and a presence row on its conversation (decision 075). */
async function helpdeskSlaCases(accountId: string, userId: string): Promise<TableCase[]> {
  const conversationId = await firstId('conversations', 'account_id', accountId);
  for (const [table, row] of [
    ['helpdesk_business_hours', { account_id: accountId, timezone: 'Europe/Berlin' }],
    ['helpdesk_sla_targets', { account_id: accountId, priority: 'normal', first_response_minutes: 60, resolution_minutes: 480 }],
    ['sla_breaches', { account_id: accountId, conversation_id: conversationId, target: 'first_response', due_at: '2026-01-01T00:00:00Z' }],
    ['csat_responses', { account_id: accountId, conversation_id: conversationId, token_hash: `\\x${'ab'.repeat(32)}`, score: 5, answered_at: '2026-01-01T00:00:00Z' }],
    ['conversation_presence', { account_id: accountId, conversation_id: conversationId, user_id: userId }],
  ] as const) {
    const { error } = await admin.from(table).insert(row);
    if (error) throw new Error(`${table}: ${error.message}`);
  }
  return [
    { table: 'helpdesk_business_hours', id: accountId, idColumn: 'account_id', insert: { account_id: accountId }, update: { timezone: 'UTC' } },
    { table: 'helpdesk_sla_targets', id: 'normal', idColumn: 'priority', insert: { account_id: accountId, priority: 'low', first_response_minutes: 1, resolution_minutes: 1 }, update: { first_response_minutes: 1 } },
    { table: 'sla_breaches', id: conversationId, idColumn: 'conversation_id', insert: { account_id: accountId, conversation_id: conversationId, target: 'resolution', due_at: '2026-01-01T00:00:00Z' }, update: { due_at: '2030-01-01T00:00:00Z' } },
    { table: 'csat_responses', id: conversationId, idColumn: 'conversation_id', insert: { account_id: accountId, conversation_id: conversationId, token_hash: `\\x${'cd'.repeat(32)}` }, update: { score: 1 } },
    { table: 'conversation_presence', id: conversationId, idColumn: 'conversation_id', insert: { account_id: accountId, conversation_id: conversationId, user_id: userId }, update: { seen_at: '2030-01-01T00:00:00Z' } },
  ];
}

/** A's conversation tagged (the trigger writes its conversation_tags row; decision 090). */
async function conversationTagsCase(accountId: string): Promise<TableCase> {
  const conversationId = await firstId('conversations', 'account_id', accountId);
  const { error } = await admin.from('conversations').update({ tags: ['tenant'] }).eq('id', conversationId);
  if (error) throw new Error(`conversation_tags: ${error.message}`);
  return {
    table: 'conversation_tags', id: conversationId, idColumn: 'conversation_id',
    insert: { account_id: accountId, conversation_id: conversationId, tag: 'spy', last_message_at: '2026-01-01T00:00:00Z' }, update: { tag: 'hijacked' },
  };
}

async function firstId(table: string, column: string, value: string): Promise<string> {
  const { data, error } = await admin.from(table).select('id').eq(column, value).limit(1).single();
  if (error) throw new Error(`${table}: ${error.message}`);
  return data.id;
}

beforeAll(async () => {
  backend = await startBackend();
  admin = serviceClient(backend);
  a = await signUpFreshAdmin(backend, 'tenant-a');
  b = await signUpFreshAdmin(backend, 'tenant-b');

  // Account A's rows in every table, made by A through the API.
  const { data: quote, error: quoteError } = await a.client
    .rpc('create_quote', {
      p_contact_name: 'Ann Client', p_contact_email: 'ann@client.test', p_company: 'Client Co',
      p_description: 'Consulting', p_unit_price: 12500, p_quantity: 2, p_currency: 'USD', p_expires_in_days: 30, p_notes: null,
    })
    .single<{ id: string; contact_id: string }>();
  if (quoteError) throw quoteError;
  const must = async (p: PromiseLike<{ error: unknown }>) => {
    const { error } = await p;
    if (error) throw error;
  };
  await must(a.client.from('leads').insert({ account_id: a.accountId, name: 'Lee Lead', email: 'lee@lead.test', company: 'Lead Co' }));
  await must(a.client.from('templates').insert({ account_id: a.accountId, name: 'Welcome', type: 'email', subject: 'Hi', content: 'Hello' }));
  await must(a.client.from('integrations').insert({ account_id: a.accountId, name: 'CRM', type: 'crm', config: { api_url: 'https://crm.test' } }));
  const { data: cpq } = await a.client.from('modules').select('id').eq('key', 'cpq').single();
  await must(a.client.from('account_modules').insert({ account_id: a.accountId, module_id: cpq!.id, status: 'active' }));
  const invited = await invoke(a.client, 'invite-user', { email: uniqueEmail('pending'), role: 'client' });
  expect(invited.status).toBe(201);
  const { data: helpdesk } = await a.client.from('modules').select('id').eq('key', 'helpdesk').single();
  const documentRow = (account: string, sha: string) => ({
    account_id: account, title: 'Spy', file_path: `${account}/${sha.slice(0, 8)}/x.pdf`, file_name: 'x.pdf', file_size: 1, mime_type: 'application/pdf', sha256: sha,
  });
  await must(a.client.from('documents').insert({ ...documentRow(a.accountId, 'a'.repeat(64)), title: 'Contract' }));
  await must(a.client.from('bills').insert({ account_id: a.accountId, supplier_name: 'Northwind', number: 'NW-1', currency: 'EUR', total: 100 }));
  const { data: automation } = await a.client.from('automations').insert({
    account_id: a.accountId, name: 'Welcome', trigger_kind: 'lead_created', action_kind: 'assign_task',
    action_settings: { assignee_id: a.userId, title: 'Call' } }).select('id').single();
  await must(admin.from('automation_runs').insert({ account_id: a.accountId, automation_id: automation!.id, scheduled_for: '2029-01-01T00:00:00Z', status: 'succeeded' }));
  await must(a.client.from('tasks').insert({ account_id: a.accountId, title: 'Call back', assignee_id: a.userId }));
  const { data: complianceItem } = await a.client.from('compliance_items')
    .insert({ account_id: a.accountId, title: 'Access review', responsible_team: 'IT', description: 'D', first_review_date: new Date().toISOString().slice(0, 10) })
    .select('id').single();
  await must(a.client.rpc('record_compliance_review', { p_item_id: complianceItem!.id, p_reviewed_on: new Date().toISOString().slice(0, 10), p_outcome: 'Compliant' }));
  const evidenceRow = (account: string, sha: string) => ({
    account_id: account, item_id: complianceItem!.id, title: 'Spy', file_path: `${account}/compliance/${sha.slice(0, 8)}/e.pdf`, file_name: 'e.pdf', file_size: 1,
    mime_type: 'application/pdf', sha256: sha, effective_on: '2026-01-01',
  });
  await must(a.client.from('evidence').insert(evidenceRow(a.accountId, 'c'.repeat(64))));
  const { data: catalogue } = await a.client.rpc('import_compliance_catalogue', {
    p_title: 'Catalogue', p_version: '1', p_oscal_version: '1.0.0', p_source_uuid: '11111111-1111-4111-8111-111111111111',
    p_controls: [{ key: 'c-1', label: 'C-1', family: 'F', title: 'Control', statement: 'Do it' }],
  }).single<{ id: string }>();
  const controlId = await firstId('compliance_controls', 'catalogue_id', catalogue!.id);
  await must(a.client.from('compliance_item_controls').insert({ account_id: a.accountId, item_id: complianceItem!.id, control_id: controlId }));
  // A conversation of A's, received as mail at A's inbound mailbox.
  const { data: box } = await a.client.rpc('inbound_mailbox').single<{ local_part: string }>();
  await must(admin.rpc('receive_email', {
    p_to: `${box!.local_part}@in.test`, p_from_email: 'ann@client.test', p_from_name: 'Ann', p_subject: 'Help', p_body: 'Hello', p_message_id: '<tenant@a.test>',
  }));
  // A job of A's, claimed once so it has a run record (jobs are queued by triggers and RPCs, never by users).
  await must(admin.rpc('enqueue_job', { p_kind: 'test.tenant', p_idempotency_key: `tenant:${a.accountId}`, p_account_id: a.accountId }));
  await must(admin.rpc('claim_jobs', { p_runner: 'tenant-test', p_limit: 100 }));

  const { data: invoice, error: invoiceError } = await a.client
    .rpc('create_invoice', {
      p_client_name: 'Ann Client', p_client_email: 'ann@client.test', p_description: 'Consulting', p_unit_price: 12500,
      p_quantity: 2, p_currency: 'USD', p_due_date: '2030-01-01',
    })
    .single<{ id: string }>();
  if (invoiceError) throw invoiceError;
  await must(a.client.rpc('send_invoice', { p_invoice_id: invoice!.id }));
  await must(a.client.rpc('record_payment', { p_invoice_id: invoice!.id, p_amount: 100, p_paid_on: new Date().toISOString().slice(0, 10) }));

  // A's purchase order, sent and received (its inbound shipment, package and event), and a shipment of A's.
  const { data: po, error: poError } = await a.client.rpc('create_purchase_order', {
    p_supplier_name: 'Northwind', p_supplier_email: 'po@northwind.test', p_currency: 'USD', p_expected_on: null, p_notes: null,
    p_items: [{ description: 'Pallets', qty: 1, unit_price: 100 }],
  }).single<{ id: string }>();
  if (poError) throw poError;
  await must(a.client.rpc('send_purchase_order', { p_id: po!.id }));
  await must(a.client.rpc('receive_purchase_order', { p_id: po!.id }));
  const shipmentId = await firstId('shipments', 'account_id', a.accountId);

  const rfpRow = { company: 'Buyer', contact_email: 'bids@buyer.test', value: 100, deadline: '2027-01-31', proposal: 'P' };
  await must(a.client.from('rfps').insert({ account_id: a.accountId, ...rfpRow, title: 'Northwind' }));
  await must(a.client.from('canned_replies').insert({ name: 'Shipped', body: 'It shipped.' }));
  // A's bid files and answer library (decision 091).
  const filesBid = (await a.client.from('rfps').insert({ ...rfpRow, title: 'With files' }).select('id').single()).data!.id as string;
  const bidFile = (seed: string) => ({
    account_id: a.accountId, rfp_id: filesBid, file_name: 'f.pdf', file_path: `${a.accountId}/rfp/${filesBid}/${seed}/f.pdf`, file_size: 1, mime_type: 'application/pdf', sha256: 'c'.repeat(64),
  });
  await must(a.client.from('rfp_attachments').insert(bidFile('a')));
  await must(a.client.from('rfp_answers').insert({ title: 'Insurance', body: 'Covered.' }));
  // A's tender radar (decision 079): a source with one notice, a saved search.
  const radarCases = async (accountId: string) => {
    const { data: source } = await a.client.from('tender_sources').insert({ name: 'Feed', url: 'https://feeds.a.test/ocds.json', format: 'ocds' }).select('id').single();
    await must(admin.rpc('ingest_tender_notices', { p_source: source!.id, p_notices: [{ sourceId: 'n-1', title: 'Hosting' }] }));
    await must(a.client.from('tender_searches').insert({ name: 'Hosting', keywords: ['hosting'] }));
    return [
      { table: 'tender_sources', id: source!.id, insert: { account_id: accountId, name: 'Spy', url: 'https://spy.test/feed', format: 'rss' }, update: { name: 'Hijacked' } },
      { table: 'tender_searches', id: await firstId('tender_searches', 'account_id', accountId), insert: { account_id: accountId, name: 'Spy' }, update: { name: 'Hijacked' } },
      { table: 'opportunities', id: await firstId('opportunities', 'account_id', accountId), insert: { account_id: accountId, source_id: source!.id, notice_id: 'spy', title: 'Spy' }, update: { dismissed: true } },
    ];
  };
  cases.push(
    { table: 'rfps', id: await firstId('rfps', 'account_id', a.accountId), insert: { account_id: a.accountId, ...rfpRow, title: 'Spy' }, update: { title: 'Hijacked' } },
    ...(await radarCases(a.accountId)),
    { table: 'rfp_attachments', id: await firstId('rfp_attachments', 'account_id', a.accountId), insert: bidFile('spy'), update: { file_name: 'hijacked.pdf' } },
    { table: 'rfp_answers', id: await firstId('rfp_answers', 'account_id', a.accountId), insert: { account_id: a.accountId, title: 'Spy', body: 'x' }, update: { body: 'Hijacked' } },
    { table: 'purchase_orders', id: po!.id, insert: { account_id: a.accountId, supplier_name: 'Spy' }, update: { notes: 'Hijacked' } },
    { table: 'purchase_order_items', id: await firstId('purchase_order_items', 'account_id', a.accountId), insert: { account_id: a.accountId, purchase_order_id: po!.id, description: 'Spy', qty: 1, unit_price: 1 }, update: { received_qty: 0 } },
    { table: 'shipments', id: shipmentId, insert: { account_id: a.accountId, origin: 'A', destination: 'B', weight: 1, description: 'Spy' }, update: { description: 'Hijacked' } },
    { table: 'shipment_packages', id: await firstId('shipment_packages', 'account_id', a.accountId), insert: { account_id: a.accountId, shipment_id: shipmentId, description: 'Spy', qty: 1 }, update: { qty: 9 } },
    { table: 'tracking_events', id: await firstId('tracking_events', 'account_id', a.accountId), insert: { account_id: a.accountId, shipment_id: shipmentId, occurred_at: '2026-01-01T00:00:00Z', status: 'Delivered', description: 'Spy', source: 'manual' }, update: { status: 'Exception' } },
    { table: 'accounts', id: a.accountId, accountColumn: 'id', insert: { id: a.accountId, name: 'Hijack' }, update: { name: 'Hijacked' } },
    { table: 'users', id: a.userId, insert: { account_id: a.accountId, auth_user_id: b.authUserId, email: b.email, role: 'admin' }, update: { first_name: 'Hijacked' } },
    { table: 'user_invitations', id: await firstId('user_invitations', 'account_id', a.accountId), insert: { account_id: a.accountId, email: 'spy@b.test', role: 'admin', token: 'f'.repeat(64) }, update: { role: 'admin' } },
    { table: 'contacts', id: quote!.contact_id, insert: { account_id: a.accountId, name: 'Spy', email: 'spy@b.test' }, update: { name: 'Hijacked' } },
    { table: 'quotes', id: quote!.id, insert: { account_id: a.accountId, total: 1 }, update: { notes: 'Hijacked' } },
    { table: 'quote_items', id: await firstId('quote_items', 'quote_id', quote!.id), accountColumn: '', insert: { quote_id: quote!.id, description: 'Spy', qty: 1, unit_price: 1, total: 1 }, update: { description: 'Hijacked' } },
    { table: 'leads', id: await firstId('leads', 'account_id', a.accountId), insert: { account_id: a.accountId, name: 'Spy', email: 'spy@b.test', company: 'B' }, update: { notes: 'Hijacked' } },
    { table: 'templates', id: await firstId('templates', 'account_id', a.accountId), insert: { account_id: a.accountId, name: 'Spy', content: 'x' }, update: { name: 'Hijacked' } },
    { table: 'integrations', id: await firstId('integrations', 'account_id', a.accountId), insert: { account_id: a.accountId, name: 'Spy', type: 'crm', config: {} }, update: { name: 'Hijacked', is_active: false } },
    { table: 'account_modules', id: await firstId('account_modules', 'account_id', a.accountId), insert: { account_id: a.accountId, module_id: helpdesk!.id, status: 'active' }, update: { status: 'cancelled' } },
    { table: 'audit_logs', id: await firstId('audit_logs', 'account_id', a.accountId), insert: { account_id: a.accountId, action: 'forged', resource_type: 'x' }, update: { action: 'forged' } },
    // The rollup's rows are named by status (B has no quotes, so none of its own match).
    { table: 'quote_stats', id: 'draft', idColumn: 'status', insert: { account_id: a.accountId, status: 'signed', month: '2026-01-01', quote_count: 1, quote_value: 1 }, update: { quote_value: 0 } },
    // Named by status too (B has no leads).
    { table: 'lead_stats', id: 'new', idColumn: 'status', insert: { account_id: a.accountId, status: 'lost', month: '2026-01-01', lead_count: 1 }, update: { lead_count: 0 } },
    { table: 'documents', id: await firstId('documents', 'account_id', a.accountId), insert: documentRow(a.accountId, 'b'.repeat(64)), update: { title: 'Hijacked' } },
    { table: 'invoices', id: invoice!.id, insert: { account_id: a.accountId, client_name: 'Spy', client_email: 'spy@b.test', due_date: '2030-01-01' }, update: { notes: 'Hijacked' } },
    { table: 'invoice_items', id: await firstId('invoice_items', 'invoice_id', invoice!.id), accountColumn: '', insert: { invoice_id: invoice!.id, description: 'Spy', qty: 1, unit_price: 1, total: 1 }, update: { description: 'Hijacked' } },
    { table: 'payments', id: await firstId('payments', 'invoice_id', invoice!.id), insert: { account_id: a.accountId, invoice_id: invoice!.id, amount: 1, paid_on: '2026-01-01' }, update: { amount: 1 } },
    { table: 'bills', id: await firstId('bills', 'account_id', a.accountId), insert: { account_id: a.accountId, supplier_name: 'Spy', number: 'SPY-1', currency: 'EUR', total: 1 }, update: { notes: 'Hijacked' } },
    { table: 'automations', id: automation!.id, insert: { account_id: a.accountId, name: 'Spy', trigger_kind: 'lead_created', action_kind: 'assign_task', action_settings: { assignee_id: a.userId, title: 'Spy' } }, update: { name: 'Hijacked' } },
    { table: 'automation_runs', id: await firstId('automation_runs', 'account_id', a.accountId), insert: { account_id: a.accountId, automation_id: automation!.id, scheduled_for: '2031-01-01T00:00:00Z' }, update: { status: 'failed' } },
    { table: 'tasks', id: await firstId('tasks', 'account_id', a.accountId), insert: { account_id: a.accountId, title: 'Spy' }, update: { done: true } },
    { table: 'compliance_items', id: complianceItem!.id, insert: { account_id: a.accountId, title: 'Spy', responsible_team: 'B', description: 'D', first_review_date: '2030-01-01' }, update: { title: 'Hijacked' } },
    { table: 'compliance_occurrences', id: await firstId('compliance_occurrences', 'account_id', a.accountId), insert: { account_id: a.accountId, item_id: complianceItem!.id, due_on: '2031-01-01' }, update: { status: 'done' } },
    { table: 'compliance_reviews', id: await firstId('compliance_reviews', 'account_id', a.accountId), insert: { account_id: a.accountId, item_id: complianceItem!.id, reviewed_on: '2026-01-01', outcome: 'Compliant' }, update: { notes: 'Hijacked' } },
    { table: 'compliance_catalogues', id: catalogue!.id, insert: { account_id: a.accountId, title: 'Spy', source_uuid: '22222222-2222-4222-8222-222222222222' }, update: { title: 'Hijacked' } },
    { table: 'compliance_controls', id: controlId, insert: { account_id: a.accountId, catalogue_id: catalogue!.id, control_key: 'spy', label: 'SPY', title: 'Spy', position: 1 }, update: { title: 'Hijacked' } },
    { table: 'compliance_item_controls', id: complianceItem!.id, idColumn: 'item_id', insert: { account_id: a.accountId, item_id: complianceItem!.id, control_id: controlId }, update: { control_id: controlId } },
    { table: 'evidence', id: await firstId('evidence', 'account_id', a.accountId), insert: evidenceRow(a.accountId, 'd'.repeat(64)), update: { title: 'Hijacked' } },
    { table: 'conversations', id: await firstId('conversations', 'account_id', a.accountId), insert: { account_id: a.accountId, contact_id: quote!.contact_id, subject: 'Spy' }, update: { status: 'resolved' } },
    { table: 'messages', id: await firstId('messages', 'account_id', a.accountId), insert: { account_id: a.accountId, conversation_id: await firstId('conversations', 'account_id', a.accountId), direction: 'note', body: 'Spy' }, update: { body: 'Hijacked' } },
    { table: 'message_attachments', id: await attachmentOf(a.accountId), insert: { account_id: a.accountId, conversation_id: await firstId('conversations', 'account_id', a.accountId), message_id: await firstId('messages', 'account_id', a.accountId), file_name: 'spy.pdf', mime_type: 'application/pdf', size_bytes: 1, storage_path: `${a.accountId}/spy` }, update: { file_name: 'hijacked.pdf' } },
    { table: 'quote_list', id: quote!.id, insert: { account_id: a.accountId, notes: 'Spy' }, update: { notes: 'Hijacked' } },
    { table: 'events', id: await firstId('events', 'account_id', a.accountId), insert: { account_id: a.accountId, kind: 'lead_created', resource_type: 'x' }, update: { payload: {} } },
    { table: 'jobs', id: await firstId('jobs', 'account_id', a.accountId), insert: { account_id: a.accountId, kind: 'test.spy', idempotency_key: 'spy' }, update: { status: 'queued' } },
    { table: 'job_runs', id: await firstId('job_runs', 'account_id', a.accountId), insert: { account_id: a.accountId, job_id: await firstId('jobs', 'account_id', a.accountId), runner: 'spy', attempt: 9 }, update: { outcome: 'done' } },
    ...(await helpdeskSlaCases(a.accountId, a.userId)),
    { table: 'canned_replies', id: await firstId('canned_replies', 'account_id', a.accountId), insert: { account_id: a.accountId, name: 'Spy', body: 'x' }, update: { body: 'Hijacked' } },
    { table: 'automation_list', id: automation!.id, insert: { account_id: a.accountId, name: 'Spy' }, update: { name: 'Hijacked' } },
    await conversationTagsCase(a.accountId),
  );
});

afterAll(async () => backend?.stop());

/** Everything of account A in a table, as the service role sees it. */
async function snapshotOfA(c: TableCase) {
  const column = c.accountColumn === undefined ? 'account_id' : c.accountColumn;
  const query = column ? admin.from(c.table).select('*').eq(column, a.accountId) : admin.from(c.table).select('*').eq('id', c.id);
  const { data, error } = await query.order(c.idColumn ?? 'id');
  if (error) throw error;
  return data;
}

describe('a user of another account', () => {
  it('is tried on every relation of schema public', async () => {
    const relations = (await publicRelations(backend)).map((r) => r.name);
    const covered = [...cases.map((c) => c.table), ...SHARED];
    expect(relations.filter((name) => !covered.includes(name)), 'relations without a cross-tenant case').toEqual([]);
    expect(covered.filter((name) => !relations.includes(name)), 'cases of relations that are gone').toEqual([]);
  });

  it('cannot select, insert, update or delete account A rows in any table', async () => {
    let attempts = 0;
    const breaches: string[] = [];
    for (const c of cases) {
      const before = await snapshotOfA(c);
      expect(before.length, `${c.table} fixture`).toBeGreaterThan(0);
      const idColumn = c.idColumn ?? 'id';

      const read = await b.client.from(c.table).select('*').eq(idColumn, c.id);
      attempts++;
      if (!read.error && read.data.length > 0) breaches.push(`${c.table}: select saw ${read.data.length} row(s)`);

      const inserted = await b.client.from(c.table).insert(c.insert).select();
      attempts++;
      if (!inserted.error) breaches.push(`${c.table}: insert accepted`);

      const updated = await b.client.from(c.table).update(c.update).eq(idColumn, c.id).select();
      attempts++;
      if (!updated.error && updated.data.length > 0) breaches.push(`${c.table}: update changed ${updated.data.length} row(s)`);

      const deleted = await b.client.from(c.table).delete().eq(idColumn, c.id).select();
      attempts++;
      if (!deleted.error && deleted.data.length > 0) breaches.push(`${c.table}: delete removed ${deleted.data.length} row(s)`);

      expect(await snapshotOfA(c), `${c.table} unchanged`).toEqual(before);
    }
    console.info(`cross-tenant matrix: ${attempts} attempts on ${cases.length} tables, ${breaches.length} breaches`);
    expect(breaches).toEqual([]);
    expect(attempts).toBe(cases.length * 4);
  });

  it('cannot write the shared module catalogue, though it can read it', async () => {
    const { data: catalogue } = await b.client.from('modules').select('id, key, monthly_price').order('sort_order');
    expect(catalogue?.map((m) => m.key)).toEqual(['helpdesk', 'cpq', 'logistics', 'doc2data', 'rfp', 'compliance']);
    const id = catalogue![0].id;
    expect((await b.client.from('modules').insert({ key: 'rfp', name: 'x', description: 'x' }).select()).error).not.toBeNull();
    const updated = await b.client.from('modules').update({ monthly_price: 1 }).eq('id', id).select();
    expect(updated.error !== null || updated.data.length === 0).toBe(true);
    const deleted = await b.client.from('modules').delete().eq('id', id).select();
    expect(deleted.error !== null || deleted.data.length === 0).toBe(true);
    const { data: after } = await admin.from('modules').select('monthly_price').eq('id', id).single();
    expect(after?.monthly_price).toBe(29900);
  });

  it('sees only its own account through unfiltered reads', async () => {
    const tables = await accountScopedRelations(backend);
    expect(tables).toEqual(expect.arrayContaining(['accounts', 'users', 'quotes', 'quote_stats', 'lead_stats', 'quote_list']));
    for (const table of tables) {
      // Invitations' token hashes are readable by no browser-facing role: their other columns, then.
      const columns: string = table === 'user_invitations' ? 'id, account_id, email, role, expires_at'
        // Nor CSAT links' token hashes (decision 075).
        : table === 'csat_responses' ? 'conversation_id, account_id, score' : '*';
      const { data, error } = await b.client.from(table).select<string, Record<string, unknown>>(columns);
      expect(error, table).toBeNull();
      for (const row of data ?? []) {
        expect(table === 'accounts' ? row.id : row.account_id, table).toBe(b.accountId);
      }
    }
    const { data: items } = await b.client.from('quote_items').select('id');
    expect(items).toEqual([]);
  });

  it('the anonymous key reads no table at all, only the public site info', async () => {
    const anon = (await import('./support/backend.ts')).anonClient(backend);
    for (const table of ['accounts', 'users', 'quotes', 'modules', 'audit_logs']) {
      const { data } = await anon.from(table).select('*');
      expect(data ?? [], table).toEqual([]);
    }
    const { data: site, error } = await anon.rpc('get_public_site_info').maybeSingle<Record<string, unknown>>();
    expect(error).toBeNull();
    expect(Object.keys(site ?? {}).sort()).toEqual(['contact_email', 'description', 'name']);
  });
});
