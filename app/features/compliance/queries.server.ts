// What the Compliance screens ask of the database: the list (searched,
// filtered by status, category, risk level and owner) with the cards of
// compliance_summary, the month's due reviews for the calendar, the owners to
// choose from, the insert; an item's page with its occurrences, reviews,
// evidence and trail, its edit (schedule included) and delete.
import { searchText, type ListQuery } from '~/lib/list-query';
import { filterList, readList, withSummaryTotal } from '~/lib/records.server';
import { loadHistory } from '~/lib/record-history.server';
import type { Supabase } from '~/lib/supabase.server';
import type { CalendarMonth } from './calendar';
import type { ComplianceFilters, ComplianceStatus, EditedItem, NewAssessment } from './schema';

const LIST_COLUMNS = 'id, title, category, risk_level, responsible_team, owner_id, frequency, next_review_date, status, evidence_expired, created_at';
/** The calendar shows at most this many reviews of a month; it says when there are more. */
export const CALENDAR_LIMIT = 300;

export async function loadCompliance(supabase: Supabase, query: ListQuery<ComplianceStatus>, filters: ComplianceFilters, month: CalendarMonth) {
  const search = searchText(query.q);
  let matching = search
    ? supabase.rpc('search_compliance_items', { p_query: search }, { get: true, count: 'exact' }).select(LIST_COLUMNS)
    // Filtered by category, risk or owner: not counted (the pager says whether a next page exists), so
    // a filter never reads every matching item of a large account.
    : supabase.from('compliance_items').select(LIST_COLUMNS);
  if (filters.category) matching = matching.eq('category', filters.category);
  if (filters.risk) matching = matching.eq('risk_level', filters.risk);
  if (filters.owner) matching = matching.eq('owner_id', filters.owner);
  const narrowed = search !== null || filters.category !== null || filters.risk !== null || filters.owner !== null;
  const [summaryResult, list, due, owners] = await Promise.all([
    supabase.rpc('compliance_summary').single(),
    readList(filterList(matching, query), query, 'compliance_items'),
    // In the order of the account-first index compliance_occurrences_account_due_idx (due_on, item_id).
    supabase.from('compliance_occurrences').select('id, due_on, status, item:compliance_items(id, title, status)')
      .gte('due_on', month.first).lte('due_on', month.last).order('due_on').order('item_id').limit(CALENDAR_LIMIT + 1),
    supabase.from('users').select('id, first_name, last_name, email').eq('is_active', true).in('role', ['admin', 'member']).order('email').limit(200),
  ]);
  if (summaryResult.error) console.error(`compliance summary failed to load: ${summaryResult.error.message}`);
  if (due.error) console.error(`compliance calendar failed to load: ${due.error.message}`);
  const s = summaryResult.data;
  const summary = {
    total: Number(s?.total ?? 0),
    compliant: Number(s?.compliant ?? 0),
    actionRequired: Number(s?.action_required ?? 0) + Number(s?.non_compliant ?? 0),
    due30: Number(s?.due_30_days ?? 0),
    nextDue: s?.next_due ?? null,
  };
  const statusTotal = s ? (query.status ? statusCount(s, query.status) : summary.total) : null;
  const rows = due.data ?? [];
  return {
    summary,
    list: withSummaryTotal(list, narrowed, statusTotal),
    calendar: { rows: rows.slice(0, CALENDAR_LIMIT), more: rows.length > CALENDAR_LIMIT, failed: due.error !== null },
    owners: (owners.data ?? []).map((u) => ({ value: u.id, label: [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email })),
  };
}

function statusCount(s: { compliant: number; in_progress: number; action_required: number; non_compliant: number }, status: ComplianceStatus) {
  return Number({ Compliant: s.compliant, 'In Progress': s.in_progress, 'Action Required': s.action_required, 'Non-Compliant': s.non_compliant }[status]);
}

export type ComplianceRow = Awaited<ReturnType<typeof loadCompliance>>['list']['rows'][number];
export type CalendarRow = Awaited<ReturnType<typeof loadCompliance>>['calendar']['rows'][number];

/** A new item: its occurrences and status are the database's (trigger). */
export function insertComplianceItem(supabase: Supabase, item: NewAssessment) {
  return supabase
    .from('compliance_items')
    .insert({
      title: item.title,
      category: item.category,
      risk_level: item.risk_level,
      responsible_team: item.responsible_team,
      owner_id: item.owner_id ?? null,
      frequency: item.frequency,
      interval_months: item.frequency === 'custom' ? (item.interval_months ?? null) : null,
      first_review_date: item.next_review_date,
      description: item.description,
      requirements: item.requirements || null,
    })
    .select('id, title')
    .single();
}

const DETAIL_COLUMNS =
  'id, title, category, risk_level, responsible_team, owner_id, frequency, interval_months, first_review_date, next_review_date, description, requirements, status, evidence_expired, created_at, updated_at, owner:users!compliance_items_owner_id_account_id_fkey(first_name, last_name, email)';

/** One item of the account (RLS: staff only) with its occurrences, reviews, evidence and trail, in one round trip. */
export async function loadComplianceItem(supabase: Supabase, id: string, options: { owners?: boolean } = {}) {
  const [{ data: item, error }, occurrences, reviews, evidence, history, mapped, controls, owners] = await Promise.all([
    supabase.from('compliance_items').select(DETAIL_COLUMNS).eq('id', id).maybeSingle(),
    // In the order of the account-first index compliance_occurrences_account_due_idx (due_on, item_id).
    supabase.from('compliance_occurrences').select('id, due_on, status, closed_at, review_id').eq('item_id', id).order('due_on').limit(200),
    supabase.from('compliance_reviews').select('id, reviewed_on, outcome, notes, supersedes_id, reviewer_id, created_at').eq('item_id', id)
      .order('reviewed_on', { ascending: false }).order('created_at', { ascending: false }).limit(500),
    supabase.from('evidence').select('id, title, version, file_name, file_size, mime_type, sha256, effective_on, expires_on, review_id, created_at, file_path')
      .eq('item_id', id).order('title').order('version', { ascending: false }).limit(500),
    loadHistory(supabase, 'compliance_item', id),
    supabase.from('compliance_item_controls').select('control:compliance_controls(id, label, title)').eq('item_id', id).limit(500),
    // The controls it may be mapped to: the account's, in catalogue order (the first 500).
    supabase.from('compliance_controls').select('id, label, title').order('catalogue_id').order('position').limit(500),
    // The owners to choose from, only when the edit dialog is open (in the same round trip).
    options.owners ? ownerOptions(supabase) : Promise.resolve([]),
  ]);
  if (error) throw new Error(`compliance item failed to load: ${error.message}`);
  if (!item) return null;
  return {
    item, occurrences: occurrences.data ?? [], reviews: reviews.data ?? [], evidence: evidence.data ?? [], history,
    mapped: (mapped.data ?? []).flatMap((m) => (m.control ? [m.control] : [])),
    controls: controls.data ?? [],
    owners,
  };
}

/** The staff who may own an item: the account's active admins and members. */
async function ownerOptions(supabase: Supabase) {
  const { data } = await supabase.from('users').select('id, first_name, last_name, email').eq('is_active', true).in('role', ['admin', 'member']).order('email').limit(200);
  return (data ?? []).map((u) => ({ value: u.id, label: [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email }));
}

/** The item's fields and schedule; the database regenerates the open reviews due when the schedule changes. */
export function updateComplianceItem(supabase: Supabase, id: string, item: EditedItem) {
  return supabase
    .from('compliance_items')
    .update({
      title: item.title,
      category: item.category,
      risk_level: item.risk_level,
      responsible_team: item.responsible_team,
      owner_id: item.owner_id ?? null,
      frequency: item.frequency,
      interval_months: item.frequency === 'custom' ? (item.interval_months ?? null) : null,
      first_review_date: item.first_review_date,
      description: item.description,
      requirements: item.requirements || null,
    })
    .eq('id', id)
    .select('id')
    .maybeSingle();
}

/** Only an item never reviewed is deleted (row-level security: a reviewed one is history, no row comes back). */
export function deleteComplianceItem(supabase: Supabase, id: string) {
  return supabase.from('compliance_items').delete().eq('id', id).select('id').maybeSingle();
}

export type ComplianceItemPage = NonNullable<Awaited<ReturnType<typeof loadComplianceItem>>>;

export function recordReview(supabase: Supabase, id: string, review: { reviewed_on: string; outcome: ComplianceStatus; notes?: string; supersedes?: string }) {
  return supabase.rpc('record_compliance_review', {
    p_item_id: id, p_reviewed_on: review.reviewed_on, p_outcome: review.outcome, p_notes: review.notes ?? undefined, p_supersedes: review.supersedes ?? undefined,
  }).single();
}

export function mapControl(supabase: Supabase, itemId: string, controlId: string) {
  return supabase.from('compliance_item_controls').insert({ item_id: itemId, control_id: controlId }).select('item_id').maybeSingle();
}

export function unmapControl(supabase: Supabase, itemId: string, controlId: string) {
  return supabase.from('compliance_item_controls').delete().eq('item_id', itemId).eq('control_id', controlId).select('item_id');
}
