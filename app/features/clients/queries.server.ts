// What the Clients screen asks of the database: a page of the account's
// contacts (searched by name, email or company, filtered by status) with the
// summary's four figures, and the insert of a new contact.
import type { ListQuery } from '~/lib/list-query';
import { filterList, readList } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import type { ClientStatus, NewClient } from './schema';
import { companyOrName } from './schema';

const LIST_COLUMNS = 'id, name, email, phone, company, role, status, created_at';
const SEARCH_COLUMNS = ['name', 'email', 'company'] as const;

export async function loadClients(supabase: Supabase, query: ListQuery<ClientStatus>) {
  const select = supabase.from('contacts').select(LIST_COLUMNS, { count: 'exact' });
  const [summaryResult, list] = await Promise.all([
    supabase.rpc('client_summary').single(),
    readList(filterList(select, query, SEARCH_COLUMNS), query, 'clients'),
  ]);
  // A summary that fails to load is logged and reads 0: the list below still works.
  if (summaryResult.error) console.error(`client summary failed to load: ${summaryResult.error.message}`);
  const summary = summaryResult.data ?? { total_count: 0, active_count: 0, prospect_count: 0, new_this_month: 0 };
  return {
    summary: {
      total: Number(summary.total_count),
      active: Number(summary.active_count),
      prospects: Number(summary.prospect_count),
      newThisMonth: Number(summary.new_this_month),
    },
    list,
  };
}

/** A row of the directory: the columns loadClients selects. */
export type ClientRow = Awaited<ReturnType<typeof loadClients>>['list']['rows'][number];

export function insertClient(supabase: Supabase, accountId: string, client: NewClient) {
  return supabase.from('contacts').insert({
    account_id: accountId,
    name: client.name,
    email: client.email,
    phone: client.phone || null,
    company: companyOrName(client),
    role: client.role || null,
    notes: client.notes || null,
    is_primary: true,
  });
}
