// How the audit log reads (docs/product-guide.md): actions title-cased, badge colours by
// action, resource ids previewed as their first 8 characters, and the CSV
// export of what the screen shows.

export interface AuditEntry {
  id: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  old_values: unknown;
  new_values: unknown;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
  user_email: string | null;
  user_first_name: string | null;
  user_last_name: string | null;
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

export function auditUserName(entry: Pick<AuditEntry, 'user_first_name' | 'user_last_name' | 'user_email'>): string {
  const name = [entry.user_first_name, entry.user_last_name].filter(Boolean).join(' ');
  return name || entry.user_email || 'System';
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

/**
 * One CSV field (RFC 4180 quoting). A text starting with =, +, - or @ is
 * prefixed with a quote so a spreadsheet never runs it as a formula.
 */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

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
