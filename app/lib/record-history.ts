// How a record's history reads: each audit row as a sentence ('Status changed
// by Demo Admin') and, for an edit, each field as before → after.

export interface HistoryEntry {
  id: string;
  action: string;
  at: string;
  /** Who acted, by name ('System' for the jobs runner); null when that user is gone. */
  actor: string | null;
  /** 'user' (a person of the account), 'client' (through the public link, or a client's login), 'system' (the jobs runner). */
  actorKind: 'user' | 'client' | 'system' | null;
  /** A client's email, as the action gave it. */
  actorEmail: string | null;
  oldValues: Record<string, unknown>;
  newValues: Record<string, unknown>;
}

export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

/** The fields a person edits, in the order of the form; bookkeeping columns are not among them. */
const LABELS: Record<string, string> = {
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  phone_whatsapp: 'Phone/WhatsApp',
  company: 'Company',
  role: 'Role',
  source: 'Source',
  notes: 'Notes',
  interest: 'Interests',
  status: 'Status',
  address: 'Address',
  country: 'Country',
  currency: 'Currency',
  expires_at: 'Expiry',
  due_date: 'Due date',
  tax_rate: 'Tax rate',
  discount: 'Discount',
  items: 'Line items',
};

/** 'lead_created' → 'Created'; the record's kind is the page's own. */
export function historyTitle(entry: HistoryEntry): string {
  // A payment is written on its invoice's page: it names itself.
  if (entry.action === 'payment_recorded') return 'Payment recorded';
  // Revising a quote supersedes it (issue 30): its row names the new version.
  if (entry.action === 'quote_revised' && typeof entry.newValues.revision === 'string') {
    return `Revised: replaced by ${entry.newValues.revision}`;
  }
  const verb = entry.action.split('_').slice(1).join(' ');
  if (verb === 'updated' && Object.keys(entry.newValues).length === 1 && 'contact_id' in entry.newValues) return 'Converted to a client';
  // Only a status changed. (A row whose changes are all bookkeeping — totals recomputed — is just 'Updated'.)
  const changes = changedFields(entry);
  if (verb === 'updated' && changes.length > 0 && changes.every((change) => change.field === 'Status')) return 'Status changed';
  return verb ? verb.charAt(0).toUpperCase() + verb.slice(1) : entry.action;
}

/** Who acted, as the history says it: 'Dana Demo', 'Ada Client (ada@client.test), client', 'System', 'a former user'. */
export function historyActor(entry: HistoryEntry): string {
  if (entry.actorKind === 'system') return 'System';
  if (entry.actorKind === 'client') {
    const name = entry.actor ?? entry.actorEmail ?? 'The client';
    return entry.actorEmail && entry.actorEmail !== name ? `${name} (${entry.actorEmail}), client` : `${name}, client`;
  }
  return entry.actor ?? 'a former user';
}

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (Array.isArray(value)) return value.length > 0 ? value.map(shownItem).join(', ') : '(none)';
  if (typeof value === 'object') return (value as { truncated?: boolean }).truncated ? '(long text)' : JSON.stringify(value);
  return String(value);
}

/** A list's entry: a line item (an invoice's edit) as '2 × Design work', anything else as itself. */
function shownItem(value: unknown): string {
  if (typeof value === 'object' && value !== null && typeof (value as { description?: unknown }).description === 'string') {
    const { description, qty } = value as { description: string; qty?: unknown };
    return typeof qty === 'number' ? `${qty} × ${description}` : description;
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The fields an edit changed, before → after, in the order a person reads a form. */
export function changedFields(entry: HistoryEntry): FieldChange[] {
  if (!entry.action.endsWith('_updated')) return [];
  const fields = Object.keys(LABELS).filter((field) => field in entry.newValues);
  return fields.map((field) => ({
    field: LABELS[field],
    before: shown(entry.oldValues[field]),
    after: shown(entry.newValues[field]),
  }));
}
