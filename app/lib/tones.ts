// The product's one colour language: every badge's colour is chosen here, by
// what it says (a status, a role, an audit action), apart from React so that
// anything (a unit test, a chart legend, a CSV) can ask which colour a thing
// has. components/ui/badge.tsx turns a tone into classes.
import type { Role } from './roles';

export const TONES = ['default', 'secondary', 'outline', 'red', 'blue', 'purple', 'green', 'amber', 'gray'] as const;
export type Tone = (typeof TONES)[number];

/**
 * One colour language for every status the product shows (docs/product-guide.md), on every screen:
 *   green  done / good      (paid, delivered, approved, final, compliant, active, signed, completed, replied, low risk)
 *   blue   moving along     (sent, viewed, in transit, in progress, submitted, new, contacted, unread, trial)
 *   amber  waiting on us    (pending, processing, pending review, under review, paused, prospect, medium risk)
 *   red    needs attention  (overdue, failed, non-compliant, action required, high/critical risk, expired, declined, lost, cancelled)
 *   gray   inactive         (draft, closed, inactive, superseded)
 * Anything else is an outlined badge. The badge always says its status in
 * words, so colour is never the only carrier of the meaning.
 */
const STATUS_TONES: Record<string, Tone> = {
  paid: 'green',
  delivered: 'green',
  approved: 'green',
  final: 'green',
  compliant: 'green',
  active: 'green',
  signed: 'green',
  completed: 'green',
  replied: 'green',
  low: 'green',
  // A document's extraction: done, queued, waiting for its text.
  done: 'green',
  queued: 'blue',
  'needs text': 'amber',

  sent: 'blue',
  viewed: 'blue',
  'in transit': 'blue',
  'in progress': 'blue',
  submitted: 'blue',
  new: 'blue',
  contacted: 'blue',
  qualified: 'blue',
  unread: 'blue',
  trial: 'blue',

  pending: 'amber',
  processing: 'amber',
  'pending review': 'amber',
  'under review': 'amber',
  paused: 'amber',
  prospect: 'amber',
  medium: 'amber',

  overdue: 'red',
  failed: 'red',
  'non-compliant': 'red',
  'action required': 'red',
  high: 'red',
  critical: 'red',
  expired: 'red',
  declined: 'red',
  lost: 'red',
  cancelled: 'red',

  draft: 'gray',
  closed: 'gray',
  // A quote replaced by its revision (issue 30).
  superseded: 'gray',
  inactive: 'gray',
};

/** 'In Transit', 'in_transit' and 'in-transit' are one status; 'Non-Compliant' keeps its hyphen. */
export function normaliseStatus(status: string): string {
  const key = status.trim().toLowerCase().replace(/_/g, ' ');
  return key in STATUS_TONES ? key : key.replace(/-/g, ' ');
}

export function statusTone(status: string): Tone {
  return STATUS_TONES[normaliseStatus(status)] ?? 'outline';
}

/** 'in_transit' → 'In Transit', 'non-compliant' → 'Non-Compliant'; already-cased labels stay as they are. */
export function statusLabel(status: string): string {
  return status
    .trim()
    .replace(/_/g, ' ')
    .replace(/(^|[\s-])(\p{Ll})/gu, (_match, separator: string, letter: string) => separator + letter.toUpperCase());
}

/** Roles: admin red, member amber, auditor blue, supplier purple, client green. */
const ROLE_TONES: Record<Role, Tone> = {
  admin: 'red',
  member: 'amber',
  auditor: 'blue',
  supplier: 'purple',
  client: 'green',
};

export function roleTone(role: string): Tone {
  return ROLE_TONES[role as Role] ?? 'outline';
}

/** Audit actions (docs/product-guide.md, The audit trail); any other action is an outlined badge. */
const AUDIT_TONES: Record<string, Tone> = {
  user_invited: 'green',
  invitation_accepted: 'green',
  user_role_updated: 'blue',
  user_deactivated: 'red',
  quote_created: 'purple',
  quote_updated: 'purple',
  // A quote's life, named by what happened (decision 025): the quotes' purple too.
  quote_sent: 'purple',
  quote_viewed: 'purple',
  quote_signed: 'purple',
  quote_declined: 'purple',
  quote_expired: 'purple',
  quote_revised: 'purple',
  quote_deleted: 'purple',
};

export function auditTone(action: string): Tone {
  return AUDIT_TONES[action] ?? 'outline';
}
