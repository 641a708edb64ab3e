// What the helpdesk screens ask of the database (decision 060): the inbox page
// (inbox_conversations: search and 'Mine' in the database, status, channel and
// 'Unassigned' as filters), one conversation with its thread and the people it
// may be assigned to, and the writes.
import { readList } from '~/lib/records.server';
import type { ListQuery } from '~/lib/list-query';
import type { Supabase } from '~/lib/supabase.server';
import { slaFiltered } from './sla/inbox-filters.server';
import type { SlaFilter } from './sla/timer';
import { loadReplyTools, NO_TOOLS, type ReplyTools } from './replies/reply-tools.server';

const LIST_COLUMNS =
  'id, subject, status, channel, priority, unread, last_message_at, created_at, assignee_id, sla_due_at, tags, contact:contacts(name, email)';

export interface InboxRow {
  id: string;
  subject: string;
  status: string;
  channel: string;
  priority: string;
  unread: boolean;
  last_message_at: string;
  created_at: string;
  assignee_id: string | null;
  /** The next SLA deadline still running (decision 075), null when none runs. */
  sla_due_at: string | null;
  tags: string[];
  contact: { name: string; email: string } | null;
}

export interface InboxFilters {
  channel: string | null;
  who: 'mine' | 'unassigned' | null;
  /** SLA 'Breached' / 'Due soon' and one tag (decision 075). */
  sla?: SlaFilter | null;
  tag?: string | null;
}

export async function loadInbox(supabase: Supabase, query: ListQuery, filters: InboxFilters) {
  // Decision 090: a search reads its matches (inbox_search: the trigram indexes, then a sort of the few
  // found) and counts them; without one the page is read in index order and not counted (counting makes
  // the REST server materialise the call's rows before ordering and paging them: at 100,000 conversations
  // the whole account on every view); the pager says whether a next page exists.
  // A tag without a search or an SLA filter reads the tag's own index (inbox_tagged: under row-level
  // security `tags @> ...` is never an index condition, so a rare tag read the whole account); with an SLA
  // filter the deadline index stays the cheaper read, with a search its few matches.
  const mine = filters.who === 'mine';
  const tagged = !query.q && !filters.sla && filters.tag ? filters.tag : null;
  let select = query.q
    ? supabase.rpc('inbox_search', { p_query: query.q, p_mine: mine }, { get: true, count: 'exact' }).select(LIST_COLUMNS)
    : tagged
      ? supabase.rpc('inbox_tagged', { p_tag: tagged, p_mine: mine }, { get: true }).select(LIST_COLUMNS)
      : supabase.rpc('inbox_conversations', { p_mine: mine }, { get: true }).select(LIST_COLUMNS);
  if (query.status) select = select.eq('status', query.status);
  if (filters.channel) select = select.eq('channel', filters.channel);
  if (filters.who === 'unassigned') select = select.is('assignee_id', null);
  // Through inbox_tagged the tag is already the read (a row exists only for a tag the conversation has): the
  // `tags` filter on top would only make the planner expect fewer rows than there are and hash the account.
  select = slaFiltered(select, filters.sla ?? null, tagged ? null : (filters.tag ?? null));
  // Newest conversation activity first unless the URL sorts.
  // 'Breached' and 'Due soon' list the most urgent first (decision 075: their index leads with the deadline).
  const fallback = filters.sla ? { key: 'sla_due_at', dir: 'asc' as const } : { key: 'last_message_at', dir: 'desc' as const };
  const ordered = { ...query, sort: query.sort ?? fallback };
  const list = await readList<InboxRow, string>(select as never, ordered, 'conversations');
  return { ...list, query };
}

/** One conversation of the caller's account with its messages and the people who may work it; null when none it may read. */
export async function loadConversation(supabase: Supabase, id: string) {
  const [{ data: conversation, error }, messages, people, , tools] = await Promise.all([
    supabase
      .from('conversations')
      .select('*, contact:contacts(id, name, email, phone, company)')
      .eq('id', id)
      .maybeSingle(),
    supabase
      .from('messages')
      .select('id, direction, body, sender_name, sender_email, sender_phone, delivery_status, delivery_error, sent_at, created_at, sender_unverified, attachments:message_attachments(id, file_name, mime_type, size_bytes, fetch_status, fetch_error)')
      .eq('conversation_id', id)
      .order('created_at', { ascending: true })
      .order('id', { ascending: true })
      .limit(500),
    supabase.from('users').select('id, first_name, last_name, email, role').in('role', ['admin', 'member']).order('first_name'),
    // Opened by someone who works the inbox: read. Row-level security leaves an auditor's view as it was.
    supabase.from('conversations').update({ unread: false }).eq('id', id).eq('unread', true),
    // The reply box's canned replies (filled for this conversation) and which providers are set up (decision 076).
    loadReplyTools(supabase, id),
  ]);
  if (error) console.error(`conversation failed to load: ${error.message}`);
  if (!conversation) return null;
  if (messages.error) console.error(`messages failed to load: ${messages.error.message}`);
  const replyTools = (tools.data as unknown as ReplyTools | null) ?? NO_TOOLS;
  return { conversation, messages: messages.data ?? [], messagesFailed: messages.error !== null, people: people.data ?? [], replyTools };
}

export function replyTo(supabase: Supabase, id: string, body: string, note: boolean) {
  return supabase.rpc('reply_to_conversation', { p_conversation_id: id, p_body: body, p_note: note }).single();
}

export function updateConversation(
  supabase: Supabase,
  id: string,
  values: { status?: string; priority?: string; assignee_id?: string | null },
) {
  return supabase.from('conversations').update(values).eq('id', id).select('id').maybeSingle();
}
