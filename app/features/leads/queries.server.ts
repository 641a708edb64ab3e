// What the Leads screen asks of the database: a page of the account's leads
// (searched by name, email or company, filtered by status) with the summary's
// figures, and the insert of a new lead.
import type { ListQuery } from '~/lib/list-query';
import { filterList, readList } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import type { LeadStatus, NewLead } from './schema';

const LIST_COLUMNS = 'id, name, company, email, phone_whatsapp, status, interest, created_at';
const SEARCH_COLUMNS = ['name', 'email', 'company'] as const;

export async function loadLeads(supabase: Supabase, query: ListQuery<LeadStatus>) {
  const select = supabase.from('leads').select(LIST_COLUMNS, { count: 'exact' });
  const [summaryResult, list] = await Promise.all([
    supabase.rpc('lead_summary').single(),
    readList(filterList(select, query, SEARCH_COLUMNS), query, 'leads'),
  ]);
  // A summary that fails to load is logged and reads 0: the list below still works.
  if (summaryResult.error) console.error(`lead summary failed to load: ${summaryResult.error.message}`);
  const summary = summaryResult.data ?? { total_count: 0, new_this_week: 0, qualified_count: 0, conversion_rate: 0 };
  return {
    summary: {
      total: Number(summary.total_count),
      newThisWeek: Number(summary.new_this_week),
      qualified: Number(summary.qualified_count),
      conversionRate: Number(summary.conversion_rate),
    },
    list,
  };
}

/** A row of the list: the columns loadLeads selects. */
export type LeadRow = Awaited<ReturnType<typeof loadLeads>>['list']['rows'][number];

/** A new lead starts as 'new'; qualifying it is a later step. */
export function insertLead(supabase: Supabase, accountId: string, lead: NewLead) {
  return supabase.from('leads').insert({
    account_id: accountId,
    name: lead.name,
    email: lead.email,
    phone_whatsapp: lead.phone_whatsapp || null,
    company: lead.company,
    role: lead.role || null,
    source: lead.source,
    notes: lead.notes || null,
    interest: lead.interest,
    status: 'new',
  });
}
