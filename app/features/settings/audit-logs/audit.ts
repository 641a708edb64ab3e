import { csvField } from '~/lib/csv';
// How the audit log reads (docs/product-guide.md): actions title-cased, badge colours by
// action, resource ids previewed as their first 8 characters, and the CSV
// export of what the screen shows.

export interface AuditEntry {
  id: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  /** What the record is called ('Sarah Johnson', 'Q-2026-0007'), from the database; null when nothing names it. */
  record_name: string | null;
  old_values: unknown;
  new_values: unknown;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
  user_email: string | null;
  user_first_name: string | null;
  user_last_name: string | null;
  /** Who acted (decision 047): 'user', 'client' (named by actor_name, actor_email) or 'system'; null on older rows without a user. */
  actor_kind?: string | null;
  actor_name?: string | null;
  actor_email?: string | null;
}

/** 'user_role_updated' → 'User Role Updated'. */
export function titleCaseAction(action: string): string {
  return action
    .split('_')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

export const RESOURCE_ID_PREVIEW_LENGTH = 8;

export function resourceIdPreview(id: string | null): string {
  return id ? id.slice(0, RESOURCE_ID_PREVIEW_LENGTH) : '—';
}

export function auditUserName(
  entry: Pick<AuditEntry, 'user_first_name' | 'user_last_name' | 'user_email' | 'actor_kind' | 'actor_name' | 'actor_email'>,
): string {
  if (entry.actor_kind === 'client') return `${entry.actor_name || entry.actor_email || 'The client'} (client)`;
  if (entry.actor_kind === 'system') return 'System';
  const name = [entry.user_first_name, entry.user_last_name].filter(Boolean).join(' ');
  // A user's row whose user is gone; an older row without a user is the system's as before.
  return name || entry.user_email || (entry.actor_kind === 'user' ? 'A former user' : 'System');
}

/** The email shown under who acted: the user's, or the client's as the action gave it. */
export function auditUserEmail(entry: Pick<AuditEntry, 'user_email' | 'actor_kind' | 'actor_email'>): string | null {
  return entry.user_email ?? (entry.actor_kind === 'client' ? (entry.actor_email ?? null) : null);
}

/** The kinds of record as a person calls them: a `contact` row is a client. */
const RESOURCE_NOUNS: Record<string, string> = {
  contact: 'client',
  user_invitation: 'invitation',
  account_module: 'module',
  quote_item: 'quote item',
};

export function resourceNoun(resourceType: string): string {
  return RESOURCE_NOUNS[resourceType] ?? resourceType.replaceAll('_', ' ');
}

/** 'lead Sarah Johnson'; a record nothing names is shown by its id's first 8 characters. */
export function recordLabel(entry: Pick<AuditEntry, 'resource_type' | 'record_name' | 'resource_id'>): string {
  return `${resourceNoun(entry.resource_type)} ${entry.record_name?.trim() || resourceIdPreview(entry.resource_id)}`;
}

export interface AuditChange {
  field: string;
  /** null when the field had no value before (a creation) or has none after (a deletion). */
  before: string | null;
  after: string | null;
}

/** Bookkeeping the database sets itself: no one changed these by hand. */
const QUIET_FIELDS = new Set(['id', 'account_id', 'created_at', 'updated_at', 'created_by']);
const VALUE_PREVIEW_LENGTH = 80;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as the log shows it: text as it is (cut at 80 characters), a capped long text as such, else JSON. */
export function formatAuditValue(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (isRecord(value) && value.truncated === true) {
    return typeof value.length === 'number' ? `(long text, ${value.length.toLocaleString('en-US')} characters)` : '(long text)';
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > VALUE_PREVIEW_LENGTH ? `${text.slice(0, VALUE_PREVIEW_LENGTH - 1)}…` : text;
}

/**
 * The fields an entry changed, before → after, in the order the snapshots
 * hold them: an update's changed fields, a creation's values (nothing
 * before), a deletion's (nothing after). Fields that did not change are left out.
 */
export function auditChanges(entry: Pick<AuditEntry, 'old_values' | 'new_values'>): AuditChange[] {
  const before = isRecord(entry.old_values) ? entry.old_values : {};
  const after = isRecord(entry.new_values) ? entry.new_values : {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => !QUIET_FIELDS.has(field) && JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: formatAuditValue(before[field]), after: formatAuditValue(after[field]) }))
    // A creation's empty fields say nothing.
    .filter((change) => change.before !== null || change.after !== null);
}

export const AUDIT_CSV_COLUMNS = [
  'created_at',
  'action',
  'resource_type',
  'resource_id',
  'user_name',
  'user_email',
  'ip_address',
  'user_agent',
  'old_values',
  'new_values',
] as const;


export function auditCsv(entries: AuditEntry[]): string {
  const rows = entries.map((entry) =>
    [
      entry.created_at,
      entry.action,
      entry.resource_type,
      entry.resource_id,
      [entry.user_first_name, entry.user_last_name].filter(Boolean).join(' '),
      entry.user_email,
      entry.ip_address,
      entry.user_agent,
      entry.old_values,
      entry.new_values,
    ]
      .map(csvField)
      .join(','),
  );
  return [AUDIT_CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}
