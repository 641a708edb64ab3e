// Audit packages of large items (issue 37, decision 078). A request builds the
// zip itself only while the item's evidence is under the inline limit (the
// Worker holds the whole zip in memory and its CPU time is short); above it,
// the item's page offers the package by mail: request_compliance_package
// queues compliance.audit_package, and the jobs runner builds the zip (in
// parts under Storage's upload limit), stores it in the private bucket
// compliance-packages under <account_id>/, and mails the requester signed
// links that expire. The trail here is the full one (compliance_item_trail),
// not the page's last 100 rows.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';
import type { HistoryEntry } from '~/lib/record-history';
import type { Supabase } from '~/lib/supabase.server';
import { PermanentJobError, payloadText, type JobHandler } from '~/jobs/job.server';
import { queueMail } from '~/jobs/mail-jobs.server';
import { packagePart, zipName, type PackageEvidence } from './export';
import { EVIDENCE_BUCKET } from './evidence.server';
import { PACKAGE_LINK_SECONDS, packageMail, packagePartBytes, planParts } from './package-plan';

export const PACKAGE_BUCKET = 'compliance-packages';

type TrailRow = Database['public']['Functions']['compliance_item_trail']['Returns'][number];

export function trailEntries(rows: readonly TrailRow[]): HistoryEntry[] {
  const record = (value: unknown) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
  return rows.map((row) => ({
    id: row.id,
    action: row.action,
    at: row.created_at,
    actor: row.actor_name ?? null,
    actorKind: row.actor_kind === 'user' || row.actor_kind === 'client' || row.actor_kind === 'system' ? row.actor_kind : null,
    actorEmail: row.actor_email ?? null,
    oldValues: record(row.old_values),
    newValues: record(row.new_values),
  }));
}

/** The item's whole trail, oldest first, as the signed-in staff member reads it. */
export async function loadFullTrail(supabase: Supabase, id: string): Promise<{ entries: HistoryEntry[]; failed: boolean }> {
  const { data, error } = await supabase.rpc('compliance_item_trail', { p_item_id: id });
  if (error) console.error(`compliance trail failed to load: ${error.message}`);
  return { entries: trailEntries(data ?? []), failed: error !== null };
}

const ITEM_COLUMNS =
  'id, title, category, risk_level, responsible_team, owner_id, frequency, interval_months, first_review_date, next_review_date, description, requirements, status, evidence_expired, created_at, updated_at';
const EVIDENCE_COLUMNS = 'id, title, version, file_name, file_size, mime_type, sha256, effective_on, expires_on, review_id, created_at, file_path';

/** Every row of a query, a page at a time (the API answers at most 1,000 rows). */
async function all<T>(page: (from: number, to: number) => PromiseLike<{ data: T[] | null; error: { message: string } | null }>): Promise<T[]> {
  const rows: T[] = [];
  for (let from = 0; ; from += 1000) {
    const { data, error } = await page(from, from + 999);
    if (error) throw new Error(`the audit package's rows failed to load: ${error.message}`);
    rows.push(...(data ?? []));
    if ((data ?? []).length < 1000) return rows;
  }
}

/**
 * The runner's job, one part per run (each well within the runner's job
 * deadline and a Worker's memory): part 1 is the request's job; each part
 * stores its zip and queues the next; the last signs every part and queues the
 * mail of the links. The parts are planned the same way in every run: evidence is
 * append-only, and only the files added before the package was asked for
 * (`as_of`) are in it. The service role reads, so every query names the job's account.
 */
export const buildAuditPackage: JobHandler = async (payload, { admin, env, job }) => {
  const itemId = payloadText(payload, 'item_id');
  const to = payloadText(payload, 'to');
  const accountId = job.account_id;
  if (!accountId) throw new PermanentJobError('The audit package job has no account');
  const part = typeof payload.part === 'number' && Number.isInteger(payload.part) && payload.part >= 1 ? payload.part : 1;
  // Part 1 names the package: its folder (its job's id) and its moment.
  const folder = part === 1 ? job.id : payloadText(payload, 'folder');
  const asOf = part === 1 ? new Date().toISOString() : payloadText(payload, 'as_of');
  const { data: item, error } = await admin.from('compliance_items').select(ITEM_COLUMNS).eq('id', itemId).eq('account_id', accountId).maybeSingle();
  if (error) throw new Error(`the item failed to load: ${error.message}`);
  if (!item) throw new PermanentJobError('The requirement is gone');
  const evidence = await all((from, to) => admin.from('evidence').select(EVIDENCE_COLUMNS).eq('item_id', itemId).eq('account_id', accountId)
    .lte('created_at', asOf).order('title').order('version', { ascending: false }).order('id').range(from, to));
  const parts = planParts(evidence, packagePartBytes(env));
  if (part > parts.length) throw new PermanentJobError(`The package has no part ${part}`);
  const pathOf = (number: number) =>
    `${accountId}/${itemId}/${folder}/${zipName(item.title).replace(/[^A-Za-z0-9_. -]/g, '_')}-audit-package${parts.length > 1 ? `-part-${number}-of-${parts.length}` : ''}.zip`;

  const head = part === 1 ? await packageHead(admin, accountId, itemId, item) : undefined;
  const files: PackageEvidence[] = await Promise.all(parts[part - 1].map(async (e) => ({ ...e, bytes: await download(admin, e.file_path) })));
  const zip = await packagePart({ head, evidence: files, generatedAt: asOf, part: parts.length > 1 ? { number: part, of: parts.length } : undefined });
  // A retry overwrites its own part.
  const stored = await admin.storage.from(PACKAGE_BUCKET).upload(pathOf(part), new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' }), {
    contentType: 'application/zip', upsert: true,
  });
  if (stored.error) throw new Error(`the audit package could not be stored: ${stored.error.message}`);

  if (part < parts.length) {
    const next = await admin.rpc('enqueue_job', {
      p_kind: 'compliance.audit_package', p_idempotency_key: `compliance_package_part:${folder}:${part + 1}`,
      p_payload: { item_id: itemId, to, user_id: typeof payload.user_id === 'string' ? payload.user_id : null, part: part + 1, folder, as_of: asOf }, p_account_id: accountId, p_subject_id: itemId,
    });
    if (next.error) throw new Error(`the next part could not be queued: ${next.error.message}`);
    return;
  }
  const links: string[] = [];
  for (let number = 1; number <= parts.length; number++) {
    const path = pathOf(number);
    const { data, error: signError } = await admin.storage.from(PACKAGE_BUCKET).createSignedUrl(path, PACKAGE_LINK_SECONDS, { download: path.split('/').pop() });
    if (signError || !data) throw new Error(`the audit package link could not be signed: ${signError?.message}`);
    links.push(data.signedUrl);
  }
  const expiresAt = new Date(Date.now() + PACKAGE_LINK_SECONDS * 1000).toISOString();
  // Queued under the package's key: a retry of this last step mails nothing more.
  await queueMail(admin, accountId, `compliance_package_mail:${folder}`, packageMail({ to, title: item.title, links, expiresAt }));
};

/** item.json (with its reviews due), reviews.json and the full trail, for the first part. */
async function packageHead(admin: SupabaseClient<Database>, accountId: string, itemId: string, item: Record<string, unknown>) {
  const [occurrences, reviews, trail] = await Promise.all([
    all((from, to) => admin.from('compliance_occurrences').select('id, due_on, status, closed_at, review_id').eq('item_id', itemId).eq('account_id', accountId).order('due_on').range(from, to)),
    all((from, to) => admin.from('compliance_reviews').select('id, reviewed_on, outcome, notes, supersedes_id, reviewer_id, created_at').eq('item_id', itemId).eq('account_id', accountId)
      .order('reviewed_on', { ascending: false }).order('created_at', { ascending: false }).range(from, to)),
    admin.rpc('compliance_item_trail_for', { p_account_id: accountId, p_item_id: itemId }),
  ]);
  if (trail.error) throw new Error(`the trail failed to load: ${trail.error.message}`);
  return { item: { ...item, occurrences }, reviews, trail: trailEntries(trail.data ?? []) };
}

async function download(admin: SupabaseClient<Database>, path: string): Promise<Uint8Array | null> {
  const { data, error } = await admin.storage.from(EVIDENCE_BUCKET).download(path);
  // A missing file is named in the manifest (missing_evidence), as in the request's package.
  if (error) console.error(`evidence file missing from the package: ${path}: ${error.message}`);
  return data ? new Uint8Array(await data.arrayBuffer()) : null;
}

/** An unreviewed item's deleted evidence: its file leaves Storage too (queued by the database with the delete). */
export const removeEvidenceFile: JobHandler = async (payload, { admin, job }) => {
  const path = payloadText(payload, 'path');
  if (!job.account_id || !path.startsWith(`${job.account_id}/compliance/`)) throw new PermanentJobError('The file is not one of the account\'s compliance evidence');
  const { error } = await admin.storage.from(EVIDENCE_BUCKET).remove([path]);
  if (error) throw new Error(`the evidence file could not be removed: ${error.message}`);
};

