// The role matrix inside one account, as the database enforces it: for every
// relation of schema public (read from the catalogue, so a new table without
// a case here fails), each role (admin, member, auditor, client, supplier)
// selects, inserts, updates and deletes through /rest/v1 with its own token,
// and gets exactly what docs/decisions/012-role-matrix.md says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  addMember, publicRelations, quoteArgs, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend,
} from './support/backend.ts';
import { ROLES, type Role, uniqueEmail } from '../support/accounts.ts';

/** What a role sees of the account's rows: all of them, those addressed to it (or itself), or none. */
type Read = 'all' | 'mine' | 'none';

const WRITERS: Role[] = ['admin', 'member'];
const ADMIN: Role[] = ['admin'];
const NOBODY: Role[] = [];
const staffRead = (client: Read, supplier: Read = 'none') =>
  ({ admin: 'all', member: 'all', auditor: 'all', client, supplier }) satisfies Record<Role, Read>;
const adminRead = { admin: 'all', member: 'none', auditor: 'none', client: 'none', supplier: 'none' } satisfies Record<Role, Read>;
const settingsRead = { admin: 'all', member: 'none', auditor: 'all', client: 'none', supplier: 'none' } satisfies Record<Role, Read>;

interface Fixture {
  admin: Member;
  users: Record<Role, Member>;
  /** A colleague whose users row the update and delete attempts aim at. */
  bystander: Member;
  /** A draft addressed to the client (which it must not see), and a quote sent to it. */
  addressedQuoteId: string;
  addressedContactId: string;
  sentQuoteId: string;
  otherQuoteId: string;
  /** An invoice sent to the client (its contact) and one that is not, each with a payment. */
  addressedInvoiceId: string;
  otherInvoiceId: string;
  /** A draft invoice to the client's contact, never sent: the client reads nothing of it. */
  unsentInvoiceId: string;
  /** A conversation of the account, received as mail. */
  conversationId: string;
  /** A compliance item of the account, reviewed once (so it is history and has a locked review). */
  complianceItemId: string;
  /** An imported catalogue, one of its controls (mapped to complianceItemId), and an unmapped item per role to map. */
  catalogueId: string;
  controlId: string;
  mappableItemIds: Record<Role, string>;
  /** A purchase order addressed to the supplier (sent, received in part), and one that is not. */
  addressedPoId: string;
  otherPoId: string;
}

interface TableCase {
  read: Record<Role, Read>;
  /** What a role may select of it at most, when that is not every column. */
  columns?: string;
  /** The ids a client or supplier reading 'mine' should see. */
  mine?: (f: Fixture, role: Role) => string[];
  insert: Role[];
  update: Role[];
  delete: Role[];
  /** The account's rows, as the service role sees them (ids). */
  rowsOfAccount: (s: SupabaseClient, f: Fixture) => Promise<string[]>;
  /** A new row's values for an insert attempt by this role. */
  newRow: (f: Fixture, role: Role) => Record<string, unknown>;
  /** A fresh row of the account made by the service role, for an update or delete that should succeed. */
  fresh?: (s: SupabaseClient, f: Fixture) => Promise<string>;
  /** The row an attempt that should be refused aims at. */
  existing: (s: SupabaseClient, f: Fixture) => Promise<string>;
  changes: Record<string, unknown>;
}

/** A document row of the account; its file path and hash derived from `seed`, so each is unique. */
const documentRow = (accountId: string, seed: string) => {
  const sha = createHash('sha256').update(seed).digest('hex');
  return { account_id: accountId, title: `Doc ${seed}`, file_path: `${accountId}/${sha.slice(0, 12)}/doc.pdf`, file_name: 'doc.pdf', file_size: 10, mime_type: 'application/pdf', sha256: sha };
};
/** An evidence row of a compliance item; its path and hash derived from `seed`. */
const evidenceRow = (accountId: string, itemId: string, seed: string) => {
  const sha = createHash('sha256').update(`evidence-${seed}`).digest('hex');
  return { account_id: accountId, item_id: itemId, title: `Evidence ${seed}`, file_path: `${accountId}/compliance/${sha.slice(0, 12)}/e.pdf`, file_name: 'e.pdf', file_size: 10, mime_type: 'application/pdf', sha256: sha, effective_on: '2026-01-01' };
};
const ids = (rows: { id: string }[] | null) => (rows ?? []).map((r) => r.id).sort();
const byAccount = (table: string) => async (s: SupabaseClient, f: Fixture) =>
  ids((await s.from(table).select('id').eq('account_id', f.admin.accountId)).data);
const automationRow = (f: Fixture, name: string) => ({
  account_id: f.admin.accountId, name, trigger_kind: 'lead_created', action_kind: 'assign_task',
  action_settings: { assignee_id: f.admin.userId, title: 'Call {{name}}' },
});
const firstOf = (table: string) => async (s: SupabaseClient, f: Fixture) => (await byAccount(table)(s, f))[0];
async function insertedId(s: SupabaseClient, table: string, values: Record<string, unknown>): Promise<string> {
  const { data, error } = await s.from(table).insert(values).select('id').single();
  if (error) throw new Error(`${table} fixture: ${error.message}`);
  return data.id;
}
/** A purchase order addressed to the supplier, sent and received in part (its inbound shipment); another not addressed; a staff shipment. */
async function logisticsFixture(admin: Member, supplier: Member): Promise<{ addressedPoId: string; otherPoId: string }> {
  const po = (supplierUserId: string | null) => admin.client.rpc('create_purchase_order', {
    p_supplier_name: 'Northwind', p_supplier_email: 'po@northwind.test', p_currency: 'USD', p_expected_on: null, p_notes: null,
    p_items: [{ description: 'Pallets', qty: 2, unit_price: 100 }], p_supplier_user_id: supplierUserId,
  }).single<{ id: string }>();
  const addressed = await po(supplier.userId);
  const other = await po(null);
  if (addressed.error || other.error) throw addressed.error ?? other.error;
  for (const step of [
    admin.client.rpc('send_purchase_order', { p_id: addressed.data!.id }),
    admin.client.rpc('receive_purchase_order', { p_id: addressed.data!.id, p_received: null }),
    admin.client.rpc('create_shipment', {
      p_origin: 'Berlin', p_destination: 'Paris', p_carrier: 'dhl', p_weight: 1, p_weight_unit: 'kg', p_length: null, p_width: null,
      p_height: null, p_dimension_unit: null, p_description: 'Staff shipment', p_special_instructions: null,
    }),
  ]) {
    const { error } = await step;
    if (error) throw new Error(error.message);
  }
  return { addressedPoId: addressed.data!.id, otherPoId: other.data!.id };
}
/** A mail received into the admin's account (its mailbox made on first ask): the conversation's id. */
async function receivedConversation(s: SupabaseClient, admin: Member, messageId: string): Promise<string> {
  const box = await admin.client.rpc('inbound_mailbox').single<{ local_part: string }>();
  if (box.error) throw new Error(box.error.message);
  const { data, error } = await s.rpc('receive_email', {
    p_to: `${box.data.local_part}@in.test`, p_from_email: 'writer@customer.test', p_from_name: 'Writer', p_subject: 'Help',
    p_body: 'Hello', p_message_id: messageId,
  });
  if (error) throw new Error(error.message);
  return (data as { conversation_id: string }).conversation_id;
}
/** A message_attachments row on a conversation's first message, as the Worker stores one (decision 071). */
async function attachmentOf(s: SupabaseClient, accountId: string, conversationId: string): Promise<string> {
  const { data: message } = await s.from('messages').select('id').eq('conversation_id', conversationId).limit(1).single();
  return insertedId(s, 'message_attachments', {
    account_id: accountId, conversation_id: conversationId, message_id: message!.id, file_name: 'a.pdf', mime_type: 'application/pdf',
    size_bytes: 5, storage_path: `${accountId}/${conversationId}/${randomBytes(8).toString('hex')}/a.pdf`,
  });
}
// The table keeps only the hash of an invitation's token.
const tokenHash = () => createHash('sha256').update(randomBytes(32)).digest('hex');

const RFP_ROW = { company: 'Buyer', contact_email: 'bids@buyer.test', value: 100, deadline: '2027-01-31', proposal: 'P' };

/** The tender radar's source of the matrix account (its notices' source), set in the fixture. */
let radarSourceId = '';
/** The bid the matrix's bid files belong to (made with the fixture). */
let filesBidId = '';
const bidFileRow = (accountId: string, seed: string) => ({
  account_id: accountId, rfp_id: filesBidId, file_name: 'bid.pdf', file_path: `${accountId}/rfp/${filesBidId}/${seed}/bid.pdf`,
  file_size: 10, mime_type: 'application/pdf', sha256: createHash('sha256').update(seed).digest('hex'),
});
const radarUrl = () => `https://feeds.matrix.test/${randomBytes(6).toString('hex')}.xml`;

const CASES: Record<string, TableCase> = {
  // The tender radar (decision 079): staff read; admins and members manage sources and searches and
  // dismiss or pursue an opportunity; only the feed job (service role) writes notices.
  tender_sources: {
    read: staffRead('none'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('tender_sources'),
    newRow: (f) => ({ account_id: f.admin.accountId, name: 'New', url: radarUrl(), format: 'rss' }),
    fresh: async (s, f) => insertedId(s, 'tender_sources', { account_id: f.admin.accountId, name: 'Fresh', url: radarUrl(), format: 'rss' }),
    existing: async () => radarSourceId,
    changes: { name: 'Changed' },
  },
  tender_searches: {
    read: staffRead('none'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('tender_searches'),
    newRow: (f) => ({ account_id: f.admin.accountId, name: 'New', keywords: ['x'] }),
    fresh: async (s, f) => insertedId(s, 'tender_searches', { account_id: f.admin.accountId, name: 'Fresh' }),
    existing: firstOf('tender_searches'),
    changes: { name: 'Changed', horizon_days: 30 },
  },
  opportunities: {
    read: staffRead('none'), insert: NOBODY, update: WRITERS, delete: NOBODY,
    rowsOfAccount: byAccount('opportunities'),
    newRow: (f) => ({ account_id: f.admin.accountId, source_id: radarSourceId, notice_id: `new-${randomBytes(4).toString('hex')}`, title: 'New' }),
    fresh: async (s, f) => insertedId(s, 'opportunities', { account_id: f.admin.accountId, source_id: radarSourceId, notice_id: `fresh-${randomBytes(4).toString('hex')}`, title: 'Fresh' }),
    existing: firstOf('opportunities'),
    changes: { dismissed: true, dismiss_reason: 'Changed' },
  },
  // Bids of /rfp: staff read, admins and members write.
  rfps: {
    read: staffRead('none'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('rfps'),
    newRow: (f) => ({ account_id: f.admin.accountId, ...RFP_ROW, title: 'New' }),
    fresh: async (s, f) => insertedId(s, 'rfps', { account_id: f.admin.accountId, ...RFP_ROW, title: 'Fresh' }),
    existing: firstOf('rfps'),
    changes: { status: 'Submitted', decision: 'go', decision_reasons: 'Changed' },
  },
  accounts: {
    read: staffRead('none'), insert: NOBODY, update: ADMIN, delete: NOBODY,
    rowsOfAccount: async (_s, f) => [f.admin.accountId],
    newRow: () => ({ name: 'Another account' }),
    existing: async (_s, f) => f.admin.accountId,
    fresh: async (_s, f) => f.admin.accountId,
    changes: { country: 'NL' },
  },
  users: {
    read: staffRead('mine', 'mine'), mine: (f, role) => [f.users[role].userId], insert: NOBODY, update: ADMIN, delete: NOBODY,
    rowsOfAccount: byAccount('users'),
    newRow: (f) => ({ account_id: f.admin.accountId, auth_user_id: f.admin.authUserId, email: uniqueEmail('forged'), role: 'admin' }),
    existing: async (_s, f) => f.bystander.userId,
    fresh: async (_s, f) => f.bystander.userId,
    changes: { first_name: 'Changed' },
  },
  // Admins only, even to read (its token's hash is readable by nobody).
  user_invitations: {
    read: { admin: 'all', member: 'none', auditor: 'none', client: 'none', supplier: 'none' }, insert: ADMIN, update: NOBODY, delete: ADMIN,
    columns: 'id, account_id, email, role, expires_at, accepted_at',
    rowsOfAccount: byAccount('user_invitations'),
    newRow: (f) => ({ account_id: f.admin.accountId, email: uniqueEmail('invitee'), role: 'member', token_hash: tokenHash() }),
    fresh: async (s, f) => insertedId(s, 'user_invitations', { account_id: f.admin.accountId, email: uniqueEmail('pending'), token_hash: tokenHash() }),
    existing: firstOf('user_invitations'),
    changes: { role: 'admin' },
  },
  contacts: {
    read: staffRead('mine'), mine: (f) => [f.addressedContactId], insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('contacts'),
    newRow: (f) => ({ account_id: f.admin.accountId, name: 'New Contact', email: 'new@contact.test' }),
    fresh: async (s, f) => insertedId(s, 'contacts', { account_id: f.admin.accountId, name: 'Fresh', email: 'fresh@contact.test' }),
    existing: async (_s, f) => f.addressedContactId,
    changes: { notes: 'Changed' },
  },
  quotes: {
    // A client reads the quote sent to it, never the draft addressed to it (issue 30).
    read: staffRead('mine'), mine: (f) => [f.sentQuoteId], insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('quotes'),
    newRow: (f) => ({ account_id: f.admin.accountId, notes: 'New quote' }),
    fresh: async (s, f) => insertedId(s, 'quotes', { account_id: f.admin.accountId, notes: 'Fresh' }),
    existing: async (_s, f) => f.addressedQuoteId,
    changes: { notes: 'Changed' },
  },
  documents: {
    read: staffRead('none'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('documents'),
    newRow: (f, role) => documentRow(f.admin.accountId, role),
    fresh: async (s, f) => insertedId(s, 'documents', documentRow(f.admin.accountId, `fresh-${randomBytes(4).toString('hex')}`)),
    existing: firstOf('documents'),
    changes: { title: 'Changed' },
  },
  quote_items: {
    read: staffRead('mine'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    mine: () => [], // filled in by the fixture: the addressed quote's items
    rowsOfAccount: async (s, f) =>
      ids((await s.from('quote_items').select('id').in('quote_id', [f.addressedQuoteId, f.sentQuoteId, f.otherQuoteId])).data),
    newRow: (f) => ({ quote_id: f.otherQuoteId, description: 'New item', qty: 1, unit_price: 1, total: 1 }),
    fresh: async (s, f) => insertedId(s, 'quote_items', { quote_id: f.otherQuoteId, description: 'Fresh', qty: 1, unit_price: 1, total: 1 }),
    existing: async (s, f) => ids((await s.from('quote_items').select('id').eq('quote_id', f.addressedQuoteId)).data)[0],
    changes: { description: 'Changed' },
  },
  leads: {
    read: staffRead('none'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('leads'),
    newRow: (f) => ({ account_id: f.admin.accountId, name: 'New Lead', email: 'lead@x.test', company: 'Lead Co' }),
    fresh: async (s, f) => insertedId(s, 'leads', { account_id: f.admin.accountId, name: 'Fresh', email: 'f@x.test', company: 'F' }),
    existing: firstOf('leads'),
    changes: { notes: 'Changed' },
  },
  templates: {
    read: settingsRead, insert: ADMIN, update: ADMIN, delete: ADMIN,
    rowsOfAccount: byAccount('templates'),
    newRow: (f) => ({ account_id: f.admin.accountId, name: 'New template', content: 'x' }),
    fresh: async (s, f) => insertedId(s, 'templates', { account_id: f.admin.accountId, name: 'Fresh', content: 'x' }),
    existing: firstOf('templates'),
    changes: { name: 'Changed' },
  },
  integrations: {
    read: settingsRead, insert: ADMIN, update: ADMIN, delete: ADMIN,
    rowsOfAccount: byAccount('integrations'),
    newRow: (f) => ({ account_id: f.admin.accountId, name: 'New integration', type: 'crm', config: {} }),
    fresh: async (s, f) => insertedId(s, 'integrations', { account_id: f.admin.accountId, name: 'Fresh', type: 'crm', config: {} }),
    existing: firstOf('integrations'),
    changes: { name: 'Changed' },
  },
  account_modules: {
    read: staffRead('none'), insert: ADMIN, update: ADMIN, delete: ADMIN,
    rowsOfAccount: byAccount('account_modules'),
    newRow: (f) => ({ account_id: f.admin.accountId, module_id: moduleIds.helpdesk, status: 'active' }),
    fresh: async (s, f) => {
      const taken = new Set(((await s.from('account_modules').select('module_id').eq('account_id', f.admin.accountId)).data ?? []).map((r) => r.module_id));
      const free = Object.values(moduleIds).find((id) => !taken.has(id));
      return insertedId(s, 'account_modules', { account_id: f.admin.accountId, module_id: free, status: 'trial' });
    },
    existing: firstOf('account_modules'),
    changes: { status: 'paused' },
  },
  audit_logs: {
    read: settingsRead, insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('audit_logs'),
    newRow: (f) => ({ account_id: f.admin.accountId, action: 'forged', resource_type: 'x' }),
    existing: firstOf('audit_logs'),
    changes: { action: 'forged' },
  },
  // The shared catalogue: everyone signed in reads it, nobody writes it.
  modules: {
    read: { admin: 'all', member: 'all', auditor: 'all', client: 'all', supplier: 'all' }, insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: async (s) => ids((await s.from('modules').select('id')).data),
    newRow: () => ({ key: 'forged', name: 'Forged', description: 'x' }),
    existing: async () => moduleIds.cpq,
    changes: { monthly_price: 1 },
  },
  quote_stats: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: async (s, f) =>
      ((await s.from('quote_stats').select('status, month').eq('account_id', f.admin.accountId)).data ?? []).map((r) => `${r.status}/${r.month}`).sort(),
    newRow: (f) => ({ account_id: f.admin.accountId, status: 'signed', month: '2026-01-01', quote_count: 1, quote_value: 1 }),
    existing: async () => 'draft',
    changes: { quote_value: 1 },
  },
  lead_stats: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: async (s, f) =>
      ((await s.from('lead_stats').select('status, month').eq('account_id', f.admin.accountId)).data ?? []).map((r) => `${r.status}/${r.month}`).sort(),
    newRow: (f) => ({ account_id: f.admin.accountId, status: 'lost', month: '2026-01-01', lead_count: 1 }),
    existing: async () => 'new',
    changes: { lead_count: 1 },
  },
  // The platform's outbox and queue (decision 021): staff read the events, admins the jobs
  // (a job's payload is the mail it sends); nobody writes through the API.
  events: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('events'),
    newRow: (f) => ({ account_id: f.admin.accountId, kind: 'lead_created', resource_type: 'leads' }),
    existing: firstOf('events'),
    changes: { payload: { forged: true } },
  },
  jobs: {
    read: adminRead, insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('jobs'),
    newRow: (f) => ({ account_id: f.admin.accountId, kind: 'test.forged', idempotency_key: `forged:${randomBytes(8).toString('hex')}` }),
    existing: firstOf('jobs'),
    changes: { status: 'queued', attempts: 0 },
  },
  job_runs: {
    read: adminRead, insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('job_runs'),
    newRow: (f) => ({ account_id: f.admin.accountId, job_id: f.admin.accountId, runner: 'forged', attempt: 1 }),
    existing: firstOf('job_runs'),
    changes: { outcome: 'done' },
  },
  // Automations (decision 067): staff read, writers write automations and tasks; runs are the engine's.
  automations: {
    read: staffRead('none'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('automations'),
    newRow: (f, role) => automationRow(f, `New ${role}`),
    fresh: async (s, f) => insertedId(s, 'automations', automationRow(f, `Fresh ${randomBytes(4).toString('hex')}`)),
    existing: firstOf('automations'),
    changes: { name: 'Changed' },
  },
  automation_runs: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('automation_runs'),
    newRow: (f) => ({ account_id: f.admin.accountId, automation_id: f.admin.accountId, scheduled_for: '2030-01-01T00:00:00Z' }),
    existing: firstOf('automation_runs'),
    changes: { status: 'failed' },
  },
  tasks: {
    read: staffRead('none'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('tasks'),
    newRow: (f, role) => ({ account_id: f.admin.accountId, title: `New ${role}`, assignee_id: f.admin.userId }),
    fresh: async (s, f) => insertedId(s, 'tasks', { account_id: f.admin.accountId, title: `Fresh ${randomBytes(4).toString('hex')}` }),
    existing: firstOf('tasks'),
    changes: { done: true },
  },
  // Written only through the invoice functions (decision 029): nobody writes the tables through the API.
  invoices: {
    read: staffRead('mine'), mine: (f) => [f.addressedInvoiceId], insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('invoices'),
    newRow: (f) => ({ account_id: f.admin.accountId, client_name: 'Forged', client_email: 'forged@x.test', due_date: '2030-01-01' }),
    existing: async (_s, f) => f.addressedInvoiceId,
    changes: { notes: 'Changed', status: 'paid' },
  },
  invoice_items: {
    read: staffRead('mine'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    mine: () => [], // filled in by the fixture: the addressed invoice's items
    rowsOfAccount: async (s, f) =>
      ids((await s.from('invoice_items').select('id').in('invoice_id', [f.addressedInvoiceId, f.otherInvoiceId, f.unsentInvoiceId])).data),
    newRow: (f) => ({ invoice_id: f.otherInvoiceId, description: 'Forged', qty: 1, unit_price: 1, total: 1 }),
    existing: async (s, f) => ids((await s.from('invoice_items').select('id').eq('invoice_id', f.addressedInvoiceId)).data)[0],
    changes: { unit_price: 1 },
  },
  payments: {
    read: staffRead('mine'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    mine: () => [], // filled in by the fixture: the addressed invoice's payment
    rowsOfAccount: byAccount('payments'),
    newRow: (f) => ({ account_id: f.admin.accountId, invoice_id: f.otherInvoiceId, amount: 1, paid_on: '2026-01-01' }),
    existing: async (s, f) => ids((await s.from('payments').select('id').eq('invoice_id', f.addressedInvoiceId)).data)[0],
    changes: { amount: 999 },
  },
  // Bills (decision 048): staff read, writers edit and delete a bill to pay; paying is mark_bill_paid's.
  bills: {
    read: staffRead('none'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('bills'),
    newRow: (f, role) => ({ account_id: f.admin.accountId, supplier_name: 'Supplier', number: `NEW-${role}`, currency: 'EUR', total: 100 }),
    fresh: async (s, f) => insertedId(s, 'bills', { account_id: f.admin.accountId, supplier_name: 'Supplier', number: `FRESH-${randomBytes(4).toString('hex')}`, currency: 'EUR', total: 100 }),
    existing: firstOf('bills'),
    changes: { notes: 'Changed' },
  },
  // Compliance (decision 064): staff read, writers add and edit items (an item reviewed is not deleted: the fixture's is);
  // occurrences and reviews are written only by the functions, reviews and evidence are locked for every role.
  compliance_items: {
    read: staffRead('none'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('compliance_items'),
    newRow: (f, role) => ({ account_id: f.admin.accountId, title: `New ${role}`, responsible_team: 'Team', description: 'D', first_review_date: '2030-01-01' }),
    fresh: async (s, f) => insertedId(s, 'compliance_items', { account_id: f.admin.accountId, title: `Fresh ${randomBytes(4).toString('hex')}`, responsible_team: 'Team', description: 'D', first_review_date: '2030-01-01' }),
    existing: async (s, f) => ids((await s.from('compliance_reviews').select('id:item_id').eq('account_id', f.admin.accountId)).data)[0],
    changes: { title: 'Changed' },
  },
  compliance_occurrences: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('compliance_occurrences'),
    newRow: (f) => ({ account_id: f.admin.accountId, item_id: f.complianceItemId, due_on: '2031-05-05' }),
    existing: firstOf('compliance_occurrences'),
    changes: { status: 'done', closed_at: '2030-01-01T00:00:00Z' },
  },
  compliance_reviews: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('compliance_reviews'),
    newRow: (f) => ({ account_id: f.admin.accountId, item_id: f.complianceItemId, reviewed_on: '2026-01-01', outcome: 'Compliant' }),
    existing: firstOf('compliance_reviews'),
    changes: { notes: 'Changed' },
  },
  evidence: {
    read: staffRead('none'), insert: WRITERS, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('evidence'),
    newRow: (f, role) => evidenceRow(f.admin.accountId, f.complianceItemId, `new-${role}`),
    existing: firstOf('evidence'),
    changes: { title: 'Changed' },
  },
  // Control catalogues (decision 063): imported and turned into items through the functions; writers map items to controls.
  compliance_catalogues: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('compliance_catalogues'),
    newRow: (f) => ({ account_id: f.admin.accountId, title: 'Forged', source_uuid: randomUUID() }),
    existing: firstOf('compliance_catalogues'),
    changes: { title: 'Changed' },
  },
  compliance_controls: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('compliance_controls'),
    newRow: (f) => ({ account_id: f.admin.accountId, catalogue_id: f.catalogueId, control_key: 'x-1', label: 'X-1', title: 'Forged', position: 9 }),
    existing: firstOf('compliance_controls'),
    changes: { title: 'Changed' },
  },
  compliance_item_controls: {
    read: staffRead('none'), insert: WRITERS, update: NOBODY, delete: WRITERS,
    rowsOfAccount: async (s, f) => ids((await s.from('compliance_item_controls').select('id:item_id').eq('account_id', f.admin.accountId)).data),
    newRow: (f, role) => ({ account_id: f.admin.accountId, item_id: f.mappableItemIds[role], control_id: f.controlId }),
    fresh: async (s, f) => {
      const item = await insertedId(s, 'compliance_items', { account_id: f.admin.accountId, title: `Map ${randomBytes(4).toString('hex')}`, responsible_team: 'T', description: 'D', first_review_date: '2030-01-01' });
      const { error } = await s.from('compliance_item_controls').insert({ account_id: f.admin.accountId, item_id: item, control_id: f.controlId });
      if (error) throw new Error(error.message);
      return item;
    },
    existing: async (_s, f) => f.complianceItemId,
    changes: { control_id: '00000000-0000-4000-8000-000000000000' },
  },
  // The helpdesk (decision 060): staff read, writers work a conversation (status, assignee, priority, read);
  // conversations and messages are written only by receive_email and reply_to_conversation.
  conversations: {
    read: staffRead('none'), insert: NOBODY, update: WRITERS, delete: NOBODY,
    rowsOfAccount: byAccount('conversations'),
    newRow: (f) => ({ account_id: f.admin.accountId, contact_id: f.addressedContactId, subject: 'Forged' }),
    fresh: async (s, f) => receivedConversation(s, f.admin, `<fresh-${randomBytes(4).toString('hex')}@matrix.test>`),
    existing: firstOf('conversations'),
    changes: { priority: 'high' },
  },
  messages: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('messages'),
    newRow: (f) => ({ account_id: f.admin.accountId, conversation_id: f.conversationId, direction: 'note', body: 'Forged' }),
    existing: firstOf('messages'),
    changes: { body: 'Changed' },
  },
  // Inbound mail's attachments (decision 071): staff read, only the Worker (service role) writes.
  message_attachments: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('message_attachments'),
    newRow: (f) => ({ account_id: f.admin.accountId, conversation_id: f.conversationId, message_id: f.conversationId, file_name: 'x.pdf', mime_type: 'application/pdf', size_bytes: 1, storage_path: `${f.admin.accountId}/forged` }),
    existing: firstOf('message_attachments'),
    changes: { file_name: 'changed.pdf' },
  },
  // Logistics (decision 062): staff read; the supplier reads the orders addressed to it and their
  // shipments; only the functions write, but writers edit a draft order's and a shipment's typed columns.
  purchase_orders: {
    read: staffRead('none', 'mine'), mine: (f, role) => (role === 'supplier' ? [f.addressedPoId] : []),
    insert: NOBODY, update: WRITERS, delete: NOBODY,
    rowsOfAccount: byAccount('purchase_orders'),
    newRow: (f) => ({ account_id: f.admin.accountId, supplier_name: 'Forged' }),
    fresh: async (s, f) => insertedId(s, 'purchase_orders', { account_id: f.admin.accountId, supplier_name: 'Fresh' }),
    existing: async (_s, f) => f.otherPoId,
    changes: { notes: 'Changed' },
  },
  purchase_order_items: {
    read: staffRead('none', 'mine'), mine: () => [], insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('purchase_order_items'),
    newRow: (f) => ({ account_id: f.admin.accountId, purchase_order_id: f.otherPoId, description: 'Forged', qty: 1, unit_price: 1 }),
    existing: firstOf('purchase_order_items'),
    changes: { received_qty: 1 },
  },
  shipments: {
    read: staffRead('none', 'mine'), mine: () => [], insert: NOBODY, update: WRITERS, delete: NOBODY,
    rowsOfAccount: byAccount('shipments'),
    newRow: (f) => ({ account_id: f.admin.accountId, origin: 'A', destination: 'B', weight: 1, description: 'Forged' }),
    fresh: async (s, f) => insertedId(s, 'shipments', { account_id: f.admin.accountId, origin: 'A', destination: 'B', weight: 1, description: 'Fresh' }),
    existing: firstOf('shipments'),
    changes: { description: 'Changed' },
  },
  shipment_packages: {
    read: staffRead('none', 'mine'), mine: () => [], insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('shipment_packages'),
    newRow: (f) => ({ account_id: f.admin.accountId, shipment_id: f.admin.accountId, description: 'Forged', qty: 1 }),
    existing: firstOf('shipment_packages'),
    changes: { qty: 99 },
  },
  tracking_events: {
    read: staffRead('none', 'mine'), mine: () => [], insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('tracking_events'),
    newRow: (f) => ({ account_id: f.admin.accountId, shipment_id: f.admin.accountId, occurred_at: '2026-01-01T00:00:00Z', status: 'Delivered', description: 'Forged', source: 'manual' }),
    existing: firstOf('tracking_events'),
    changes: { status: 'Exception' },
  },
  automation_list: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('automation_list'),
    newRow: (f) => ({ account_id: f.admin.accountId, name: 'x' }),
    existing: firstOf('automation_list'),
    changes: { name: 'Changed' },
  },
  quote_list: {
    read: staffRead('mine'), mine: (f) => [f.sentQuoteId], insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: byAccount('quote_list'),
    newRow: (f) => ({ account_id: f.admin.accountId, notes: 'x' }),
    existing: async (_s, f) => f.addressedQuoteId,
    changes: { notes: 'Changed' },
  },  // Helpdesk SLAs, CSAT and presence (decision 075): staff read; only the functions write
  // (save_helpdesk_sla, the breach sweep, the CSAT link, mark_replying). Staff never read a CSAT token's hash.
  helpdesk_business_hours: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: async (s, f) => slaRows(s, f, 'helpdesk_business_hours', 'account_id'),
    newRow: (f) => ({ account_id: f.admin.accountId }),
    existing: async (s, f) => (await slaRows(s, f, 'helpdesk_business_hours', 'account_id'))[0],
    changes: { timezone: 'Asia/Tokyo' },
  },
  helpdesk_sla_targets: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: async (s, f) => slaRows(s, f, 'helpdesk_sla_targets', 'priority'),
    newRow: (f) => ({ account_id: f.admin.accountId, priority: 'normal', first_response_minutes: 1, resolution_minutes: 1 }),
    existing: async () => 'normal',
    changes: { first_response_minutes: 5 },
  },
  sla_breaches: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: async (s, f) => slaRows(s, f, 'sla_breaches', 'conversation_id'),
    newRow: (f) => ({ account_id: f.admin.accountId, conversation_id: f.conversationId, target: 'resolution', due_at: '2026-01-01T00:00:00Z' }),
    existing: async (_s, f) => f.conversationId,
    changes: { due_at: '2030-01-01T00:00:00Z' },
  },
  csat_responses: {
    read: staffRead('none'), columns: 'conversation_id, account_id, score, comment, sent_at, answered_at', insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: async (s, f) => slaRows(s, f, 'csat_responses', 'conversation_id'),
    newRow: (f) => ({ account_id: f.admin.accountId, conversation_id: f.conversationId, token_hash: `\\x${'ef'.repeat(32)}` }),
    existing: async (_s, f) => f.conversationId,
    changes: { score: 1 },
  },
  conversation_presence: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: async (s, f) => slaRows(s, f, 'conversation_presence', 'conversation_id'),
    newRow: (f) => ({ account_id: f.admin.accountId, conversation_id: f.conversationId, user_id: f.admin.userId }),
    existing: async (_s, f) => f.conversationId,
    changes: { seen_at: '2030-01-01T00:00:00Z' },
  },
  // Canned replies (decision 076): staff read, writers keep the library.
  canned_replies: {
    read: staffRead('none'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('canned_replies'),
    newRow: (f, role) => ({ account_id: f.admin.accountId, name: `New ${role}`, body: 'x' }),
    fresh: async (s, f) => insertedId(s, 'canned_replies', { account_id: f.admin.accountId, name: `Fresh ${randomBytes(4).toString('hex')}`, body: 'x' }),
    existing: firstOf('canned_replies'),
    changes: { body: 'Changed' },
  },
  // A bid's files (decision 091): staff read, writers add and remove; a file is never changed.
  rfp_attachments: {
    read: staffRead('none'), insert: WRITERS, update: NOBODY, delete: WRITERS,
    rowsOfAccount: byAccount('rfp_attachments'),
    newRow: (f, role) => bidFileRow(f.admin.accountId, `new-${role}-${randomBytes(4).toString('hex')}`),
    fresh: async (s, f) => insertedId(s, 'rfp_attachments', bidFileRow(f.admin.accountId, `fresh-${randomBytes(4).toString('hex')}`)),
    existing: firstOf('rfp_attachments'),
    changes: { file_name: 'changed.pdf' },
  },
  // The answer library (decision 091): staff read, writers keep it.
  rfp_answers: {
    read: staffRead('none'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('rfp_answers'),
    newRow: (f, role) => ({ account_id: f.admin.accountId, title: `New ${role}`, body: 'x' }),
    fresh: async (s, f) => insertedId(s, 'rfp_answers', { account_id: f.admin.accountId, title: `Fresh ${randomBytes(4).toString('hex')}`, body: 'x' }),
    existing: firstOf('rfp_answers'),
    changes: { body: 'Changed' },
  },
  // The inbox's tag index (decision 090): read as conversations are, written only by the trigger.
  conversation_tags: {
    read: staffRead('none'), insert: NOBODY, update: NOBODY, delete: NOBODY,
    rowsOfAccount: async (s, f) => taggedRows(s, f),
    newRow: (f) => ({ account_id: f.admin.accountId, conversation_id: f.conversationId, tag: 'forged', last_message_at: '2026-01-01T00:00:00Z' }),
    existing: async (_s, f) => f.conversationId,
    changes: { tag: 'changed' },
  },
};
/** The fixture conversation tagged once on first ask (the trigger writes conversation_tags): its tag rows' conversation ids. */
async function taggedRows(s: SupabaseClient, f: Fixture): Promise<string[]> {
  const { error } = await s.from('conversations').update({ tags: ['matrix'] }).eq('id', f.conversationId).eq('tags', '{}');
  if (error) throw new Error(`conversation_tags fixture: ${error.message}`);
  const { data } = await s.from('conversation_tags').select('conversation_id').eq('account_id', f.admin.accountId);
  return ((data ?? []) as { conversation_id: string }[]).map((r) => r.conversation_id).sort();
}
/** The helpdesk SLA tables' rows of the account, made once on first ask (decision 075): the values of `column`. */
const slaMade = new Set<string>();
async function slaRows(s: SupabaseClient, f: Fixture, table: string, column: string): Promise<string[]> {
  const accountId = f.admin.accountId;
  if (!slaMade.has(accountId)) {
    slaMade.add(accountId);
    for (const [name, row] of [
      ['helpdesk_business_hours', { account_id: accountId, timezone: 'Europe/Berlin' }],
      ['helpdesk_sla_targets', { account_id: accountId, priority: 'normal', first_response_minutes: 60, resolution_minutes: 480 }],
      ['sla_breaches', { account_id: accountId, conversation_id: f.conversationId, target: 'first_response', due_at: '2026-01-01T00:00:00Z' }],
      ['csat_responses', { account_id: accountId, conversation_id: f.conversationId, token_hash: `\\x${'ab'.repeat(32)}` }],
      ['conversation_presence', { account_id: accountId, conversation_id: f.conversationId, user_id: f.admin.userId }],
    ] as const) {
      const { error } = await s.from(name).insert(row);
      if (error) throw new Error(`${name} fixture: ${error.message}`);
    }
  }
  const { data } = await s.from(table).select(column).eq('account_id', accountId);
  return ((data ?? []) as unknown as Record<string, string>[]).map((r) => String(r[column])).sort();
}
/** The rollups' rows have no id: they are named by their status (and month). */
const KEY: Record<string, { column: string; key: (row: Record<string, unknown>) => string }> = {
  quote_stats: { column: 'status', key: (r) => `${r.status}/${r.month}` },
  lead_stats: { column: 'status', key: (r) => `${r.status}/${r.month}` },
  // A mapping is named by its item (each fixture item is mapped to at most one control).
  compliance_item_controls: { column: 'item_id', key: (r) => String(r.item_id) },
  helpdesk_business_hours: { column: 'account_id', key: (r) => String(r.account_id) },
  helpdesk_sla_targets: { column: 'priority', key: (r) => String(r.priority) },
  sla_breaches: { column: 'conversation_id', key: (r) => String(r.conversation_id) },
  csat_responses: { column: 'conversation_id', key: (r) => String(r.conversation_id) },
  conversation_presence: { column: 'conversation_id', key: (r) => String(r.conversation_id) },
  conversation_tags: { column: 'conversation_id', key: (r) => String(r.conversation_id) },
};
const keyOf = (table: string, row: Record<string, unknown>) => (KEY[table] ? KEY[table].key(row) : String(row.id));
const idColumn = (table: string) => KEY[table]?.column ?? 'id';

const moduleIds: Record<string, string> = {};

// Also on kept data started again, as people run it: a restart once re-granted
// everything the migrations had revoked, and a fresh copy never showed it.
const targets = [
  { name: 'PGlite', on: 'pglite' as const, restarted: false, skip: false },
  { name: 'PostgreSQL', on: 'postgres' as const, restarted: false, skip: !process.env.TEST_POSTGRES_URL },
  { name: 'PGlite after a restart on kept data', on: 'pglite' as const, restarted: true, skip: false },
  { name: 'PostgreSQL after a restart on kept data', on: 'postgres' as const, restarted: true, skip: !process.env.TEST_POSTGRES_URL },
];

for (const target of targets) {
  describe.skipIf(target.skip)(`the role matrix on ${target.name}`, () => {
    let backend: TestBackend;
    let service: SupabaseClient;
    let f: Fixture;

    beforeAll(async () => {
      backend = await startBackend({ on: target.on, restarted: target.restarted });
      service = serviceClient(backend);
      const admin = await signUpFreshAdmin(backend, 'matrix-admin');
      const users = { admin } as Record<Role, Member>;
      for (const role of ROLES.filter((r) => r !== 'admin')) users[role] = await addMember(backend, admin, role, `matrix-${role}`);
      const bystander = await addMember(backend, admin, 'member', 'matrix-bystander');

      // A quote addressed to the client (its contact email is the client's, in other case), and one that is not.
      // The addressed one stays a draft (the writers' case); a second one is sent, which is all the client reads.
      const addressed = await admin.client.rpc('create_quote', quoteArgs(1000, 1, 'USD', { p_contact_email: users.client.email.toUpperCase() }))
        .single<{ id: string; contact_id: string }>();
      const other = await admin.client.rpc('create_quote', quoteArgs(2000, 1)).single<{ id: string }>();
      if (addressed.error || other.error) throw addressed.error ?? other.error;
      const sent = await service.from('quotes')
        .insert({ account_id: admin.accountId, contact_id: addressed.data!.contact_id, currency: 'USD', status: 'sent', notes: 'Sent' })
        .select('id').single();
      if (sent.error) throw sent.error;
      const sentItem = await service.from('quote_items').insert({ quote_id: sent.data.id, description: 'Sent work', qty: 1, unit_price: 3000, total: 3000 });
      if (sentItem.error) throw sentItem.error;
      for (const m of (await service.from('modules').select('id, key')).data ?? []) moduleIds[m.key] = m.id;
      const must = async (p: PromiseLike<{ error: { message: string } | null }>) => {
        const { error } = await p;
        if (error) throw new Error(error.message);
      };
      const accountId = admin.accountId;
      await must(admin.client.from('rfps').insert({ account_id: accountId, ...RFP_ROW, title: 'Existing' }));
      radarSourceId = await insertedId(admin.client, 'tender_sources', { account_id: accountId, name: 'Existing', url: radarUrl(), format: 'ocds' });
      await must(service.rpc('ingest_tender_notices', { p_source: radarSourceId, p_notices: [{ sourceId: 'existing', title: 'Existing' }] }));
      await must(admin.client.from('tender_searches').insert({ account_id: accountId, name: 'Existing' }));
      await must(admin.client.from('leads').insert({ account_id: accountId, name: 'Lee', email: 'lee@lead.test', company: 'Lead Co' }));
      await must(admin.client.from('templates').insert({ account_id: accountId, name: 'Welcome', content: 'Hello' }));
      await must(admin.client.from('integrations').insert({ account_id: accountId, name: 'CRM', type: 'crm', config: { api_key: 'sk_live_1' } }));
      await must(admin.client.from('account_modules').insert({ account_id: accountId, module_id: moduleIds.cpq, status: 'active' }));
      await must(admin.client.from('documents').insert(documentRow(accountId, 'existing')));
      await must(admin.client.from('bills').insert({ account_id: accountId, supplier_name: 'Supplier', number: 'EXISTING', currency: 'EUR', total: 100 }));
      await must(admin.client.from('canned_replies').insert({ name: 'Existing', body: 'It shipped.' }));
      filesBidId = await insertedId(admin.client, 'rfps', { account_id: accountId, ...RFP_ROW, title: 'With files' });
      await must(admin.client.from('rfp_attachments').insert(bidFileRow(accountId, 'existing')));
      await must(admin.client.from('rfp_answers').insert({ title: 'Existing', body: 'We deliver.' }));
      const { data: automation } = await admin.client.from('automations').insert({
        account_id: accountId, name: 'Existing', trigger_kind: 'lead_created', action_kind: 'assign_task',
        action_settings: { assignee_id: admin.userId, title: 'Call' } }).select('id').single();
      await must(service.from('automation_runs').insert({ account_id: accountId, automation_id: automation!.id, scheduled_for: '2029-01-01T00:00:00Z', status: 'succeeded' }));
      await must(admin.client.from('tasks').insert({ account_id: accountId, title: 'Existing', assignee_id: admin.userId }));
      await must(service.from('user_invitations').insert({ account_id: accountId, email: uniqueEmail('pending'), token_hash: tokenHash() }));
      // A job of the account, claimed once so it has a run record.
      await must(service.rpc('enqueue_job', { p_kind: 'test.matrix', p_idempotency_key: `matrix:${accountId}`, p_account_id: accountId }));
      await must(service.rpc('claim_jobs', { p_runner: 'matrix', p_limit: 100 }));
      const invoiceArgs = (email: string) => ({
        p_client_name: 'Ivy', p_client_email: email, p_description: 'Work', p_unit_price: 1000, p_quantity: 1,
        p_currency: 'USD', p_due_date: '2030-01-01',
      });
      const addressedInvoice = await admin.client.rpc('create_invoice', invoiceArgs(users.client.email)).single<{ id: string }>();
      const otherInvoice = await admin.client.rpc('create_invoice', invoiceArgs('someone@else.test')).single<{ id: string }>();
      // A draft addressed to the client too: never sent, so the client reads none of it (nor its items).
      const unsentInvoice = await admin.client.rpc('create_invoice', invoiceArgs(users.client.email)).single<{ id: string }>();
      if (addressedInvoice.error || otherInvoice.error || unsentInvoice.error) throw addressedInvoice.error ?? otherInvoice.error ?? unsentInvoice.error;
      for (const invoice of [addressedInvoice.data!, otherInvoice.data!]) {
        await must(admin.client.rpc('send_invoice', { p_invoice_id: invoice.id }));
        await must(admin.client.rpc('record_payment', { p_invoice_id: invoice.id, p_amount: 100, p_paid_on: new Date().toISOString().slice(0, 10) }));
      }
      const complianceItem = await admin.client.from('compliance_items')
        .insert({ account_id: accountId, title: 'Existing', responsible_team: 'Team', description: 'D', first_review_date: new Date().toISOString().slice(0, 10) })
        .select('id').single();
      if (complianceItem.error) throw complianceItem.error;
      await must(admin.client.rpc('record_compliance_review', { p_item_id: complianceItem.data.id, p_reviewed_on: new Date().toISOString().slice(0, 10), p_outcome: 'Compliant' }));
      await must(admin.client.from('evidence').insert(evidenceRow(accountId, complianceItem.data.id, 'existing')));
      const catalogue = await admin.client.rpc('import_compliance_catalogue', {
        p_title: 'Catalogue', p_version: '1', p_oscal_version: '1.0.0', p_source_uuid: randomUUID(),
        p_controls: [{ key: 'c-1', label: 'C-1', family: 'F', title: 'Control', statement: 'Do it' }],
      }).single<{ id: string }>();
      if (catalogue.error) throw catalogue.error;
      const control = (await service.from('compliance_controls').select('id').eq('catalogue_id', catalogue.data.id).single()).data!;
      await must(admin.client.from('compliance_item_controls').insert({ account_id: accountId, item_id: complianceItem.data.id, control_id: control.id }));
      const mappableItemIds = {} as Record<Role, string>;
      for (const role of ROLES) {
        mappableItemIds[role] = await insertedId(service, 'compliance_items', { account_id: accountId, title: `Mappable ${role}`, responsible_team: 'T', description: 'D', first_review_date: '2030-01-01' });
      }
      f = {
        catalogueId: catalogue.data.id, controlId: control.id, mappableItemIds,
        complianceItemId: complianceItem.data.id,
        admin, users, bystander,
        addressedQuoteId: addressed.data!.id, addressedContactId: addressed.data!.contact_id, otherQuoteId: other.data!.id,
        sentQuoteId: sent.data!.id,
        addressedInvoiceId: addressedInvoice.data!.id, otherInvoiceId: otherInvoice.data!.id, unsentInvoiceId: unsentInvoice.data!.id,
        conversationId: await receivedConversation(service, admin, `<existing-${accountId}@matrix.test>`),
        ...(await logisticsFixture(admin, users.supplier)),
      };
      // An inbound mail's attachment row on that conversation (the Worker writes these with the service role).
      await attachmentOf(service, f.admin.accountId, f.conversationId);
      // What the supplier reads: the addressed order's lines, its inbound shipment, that shipment's packages and events.
      const poItems = ids((await service.from('purchase_order_items').select('id').eq('purchase_order_id', f.addressedPoId)).data);
      const poShipments = ids((await service.from('shipments').select('id').eq('purchase_order_id', f.addressedPoId)).data);
      const poPackages = ids((await service.from('shipment_packages').select('id').in('shipment_id', poShipments)).data);
      const poEvents = ids((await service.from('tracking_events').select('id').in('shipment_id', poShipments)).data);
      CASES.purchase_order_items.mine = (_f, role) => (role === 'supplier' ? poItems : []);
      CASES.shipments.mine = (_f, role) => (role === 'supplier' ? poShipments : []);
      CASES.shipment_packages.mine = (_f, role) => (role === 'supplier' ? poPackages : []);
      CASES.tracking_events.mine = (_f, role) => (role === 'supplier' ? poEvents : []);
      const addressedInvoiceItems = ids((await service.from('invoice_items').select('id').eq('invoice_id', f.addressedInvoiceId)).data);
      const addressedPayments = ids((await service.from('payments').select('id').eq('invoice_id', f.addressedInvoiceId)).data);
      CASES.invoice_items.mine = () => addressedInvoiceItems;
      CASES.payments.mine = () => addressedPayments;
      const addressedItems = ids((await service.from('quote_items').select('id').eq('quote_id', f.sentQuoteId)).data);
      CASES.quote_items.mine = () => addressedItems;
    });
    afterAll(async () => backend?.stop());

    it('has a case for every relation of schema public', async () => {
      const relations = (await publicRelations(backend)).map((r) => r.name);
      expect(relations.filter((name) => !(name in CASES)), 'relations without a role matrix case').toEqual([]);
      expect(Object.keys(CASES).filter((name) => !relations.includes(name)), 'cases of relations that are gone').toEqual([]);
    });

    it('lets each role read exactly what the matrix says', async () => {
      const wrong: string[] = [];
      for (const [table, c] of Object.entries(CASES)) {
        const all = await c.rowsOfAccount(service, f);
        expect(all.length, `${table} fixture`).toBeGreaterThan(0);
        for (const role of ROLES) {
          const { data, error } = await f.users[role].client.from(table).select<string, Record<string, unknown>>(c.columns ?? '*');
          const seen = (data ?? []).map((row) => keyOf(table, row)).sort();
          const expected = { all, none: [], mine: (c.mine?.(f, role) ?? []).slice().sort() }[c.read[role]];
          if (error && expected.length > 0) wrong.push(`${table}/${role}: ${error.message}`);
          else if (JSON.stringify(seen) !== JSON.stringify(expected)) {
            wrong.push(`${table}/${role}: saw ${seen.length} row(s), expected ${expected.length} (${c.read[role]})`);
          }
        }
      }
      expect(wrong).toEqual([]);
    });

    it('lets each role insert, update and delete exactly what the matrix says', async () => {
      const wrong: string[] = [];
      for (const [table, c] of Object.entries(CASES)) {
        const column = idColumn(table);
        for (const role of ROLES) {
          const me = f.users[role].client;

          const inserted = await me.from(table).insert(c.newRow(f, role)).select(c.columns ?? '*');
          const didInsert = !inserted.error && (inserted.data ?? []).length > 0;
          if (didInsert !== c.insert.includes(role)) wrong.push(`${table}/${role}: insert ${didInsert ? 'accepted' : `refused (${inserted.error?.message})`}`);

          const mayUpdate = c.update.includes(role);
          const updateTarget = mayUpdate && c.fresh ? await c.fresh(service, f) : await c.existing(service, f);
          const before = (await service.from(table).select('*').eq(column, updateTarget)).data;
          const updated = await me.from(table).update(c.changes).eq(column, updateTarget).select(c.columns ?? '*');
          const didUpdate = !updated.error && (updated.data ?? []).length > 0;
          if (didUpdate !== mayUpdate) wrong.push(`${table}/${role}: update ${didUpdate ? 'accepted' : `refused (${updated.error?.message})`}`);
          if (!mayUpdate) {
            const after = (await service.from(table).select('*').eq(column, updateTarget)).data;
            if (JSON.stringify(after) !== JSON.stringify(before)) wrong.push(`${table}/${role}: a refused update changed the row`);
          }

          const mayDelete = c.delete.includes(role);
          const deleteTarget = mayDelete && c.fresh ? await c.fresh(service, f) : await c.existing(service, f);
          const deleted = await me.from(table).delete().eq(column, deleteTarget).select(c.columns ?? '*');
          const didDelete = !deleted.error && (deleted.data ?? []).length > 0;
          if (didDelete !== mayDelete) wrong.push(`${table}/${role}: delete ${didDelete ? 'accepted' : `refused (${deleted.error?.message})`}`);
          const { count } = await service.from(table).select('*', { count: 'exact', head: true }).eq(column, deleteTarget);
          if (!mayDelete && !count) wrong.push(`${table}/${role}: a refused delete removed the row`);
        }
      }
      expect(wrong).toEqual([]);
    });
  });
}
