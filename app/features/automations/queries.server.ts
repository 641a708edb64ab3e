// What the Automations screens ask of the database (decision 067): the page of
// automations, one automation with its runs (newest first, paged) and history,
// the account's e-mail templates and people for the dialog, and the writes
// (row-level security and the table's checks decide; the engine runs them).
import type { Tables } from '~/lib/database.types';
import { searchText, type ListQuery } from '~/lib/list-query';
import { loadHistory } from '~/lib/record-history.server';
import { filterList, readList } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import { automationRow, RUNS_PER_PAGE, type AutomationStatus, type NewAutomation } from './schema';

const LIST_COLUMNS = 'id, name, trigger_kind, action_kind, status, last_error, created_at, run_count, succeeded_count';
/** A row of automation_list: the automation with its finished runs and how many succeeded (a view: every column typed nullable). */
export type AutomationRow = Pick<
  Tables<'automation_list'>,
  'id' | 'name' | 'trigger_kind' | 'action_kind' | 'status' | 'last_error' | 'created_at' | 'run_count' | 'succeeded_count'
>;
export type AutomationRun = Pick<Tables<'automation_runs'>, 'id' | 'event_id' | 'scheduled_for' | 'status' | 'error' | 'output' | 'started_at' | 'finished_at' | 'attempts' | 'next_attempt_at' | 'manual_key'>;


/** A name's search as an ilike pattern: the user's % and _ are literal. */
const pattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function loadAutomations(supabase: Supabase, query: ListQuery<AutomationStatus>) {
  const search = searchText(query.q);
  const base = supabase.from('automation_list').select(LIST_COLUMNS, { count: 'exact' });
  const matching = search ? base.ilike('name', pattern(search)) : base;
  const list = await readList<AutomationRow, AutomationStatus>(filterList(matching, query), query, 'automations');
  return { list };
}

/**
 * What the New Automation dialog offers: the account's e-mail templates, its
 * people to assign (admins, members) and its users to mail (staff, by address).
 */
export async function loadChoices(supabase: Supabase) {
  const [templates, users] = await Promise.all([
    supabase.from('templates').select('id, name').eq('type', 'email').order('name').limit(200),
    supabase.from('users').select('id, first_name, last_name, email, role').in('role', ['admin', 'member', 'auditor']).order('email').limit(200),
  ]);
  return {
    templates: (templates.data ?? []).map((t) => ({ value: t.id, label: t.name })),
    people: (users.data ?? []).filter((u) => u.role !== 'auditor')
      .map((u) => ({ value: u.id, label: [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email })),
    recipients: (users.data ?? []).map((u) => ({ value: u.email, label: `${[u.first_name, u.last_name].filter(Boolean).join(' ') || u.email} <${u.email}>` })),
  };
}

export function insertAutomation(supabase: Supabase, form: NewAutomation) {
  return supabase.from('automations').insert(automationRow(form)).select('id, name').single();
}

/** One automation, a page of its runs (with how many there are and how many succeeded) and its history. */
export async function loadAutomation(supabase: Supabase, id: string, runPage = 1) {
  const from = (Math.max(1, runPage) - 1) * RUNS_PER_PAGE;
  const [{ data: automation, error }, runs, succeeded, history] = await Promise.all([
    supabase.from('automations').select('*').eq('id', id).maybeSingle(),
    supabase
      .from('automation_runs')
      .select('id, event_id, scheduled_for, status, error, output, started_at, finished_at, attempts, next_attempt_at, manual_key', { count: 'exact' })
      .eq('automation_id', id)
      .order('started_at', { ascending: false })
      .order('id', { ascending: false })
      .range(from, from + RUNS_PER_PAGE - 1),
    supabase.from('automation_runs').select('id', { count: 'exact', head: true }).eq('automation_id', id).eq('status', 'succeeded'),
    loadHistory(supabase, 'automation', id),
  ]);
  if (error) console.error(`automation failed to load: ${error.message}`);
  if (!automation) return null;
  return {
    automation,
    runs: (runs.data ?? []) as AutomationRun[],
    runCount: runs.count ?? 0,
    succeededCount: succeeded.count ?? 0,
    runPage: Math.max(1, runPage),
    history,
  };
}

export function setAutomationStatus(supabase: Supabase, id: string, status: 'active' | 'paused') {
  return supabase.from('automations').update({ status }).eq('id', id).select('id').maybeSingle();
}

export function deleteAutomation(supabase: Supabase, id: string) {
  return supabase.from('automations').delete().eq('id', id).select('id').maybeSingle();
}

/** The edit dialog's save: the same row as a new one's, its status left to Activate and Pause. */
export function updateAutomation(supabase: Supabase, id: string, form: NewAutomation) {
  const { status: _status, ...row } = automationRow(form);
  return supabase.from('automations').update(row).eq('id', id).select('id').maybeSingle();
}

/** Run now: one queued run per key (the page's, drawn with it); the runner performs it. */
export function runAutomationNow(supabase: Supabase, id: string, key: string) {
  return supabase.rpc('run_automation_now', { p_automation_id: id, p_key: key }).maybeSingle();
}
