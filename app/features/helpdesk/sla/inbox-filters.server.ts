// The inbox's SLA and tag filters (decision 075), on top of its other filters:
// 'Breached' (the running deadline passed), 'Due soon' (within the hour), a
// tag; and a conversation merged into another is not listed (its messages
// are in the target).
import { DUE_SOON_MINUTES, SLA_FILTER_OPTIONS, type SlaFilter } from './timer';

/** A tag as the database keeps them: lower case, letters, digits, space, '_' and '-', at most 40. */
export const TAG_PATTERN = /^[a-z0-9][a-z0-9 _-]{0,39}$/;

interface Filterable<Q> {
  lte(column: string, value: string): Q;
  gt(column: string, value: string): Q;
  contains(column: string, value: string[]): Q;
  is(column: string, value: null): Q;
}

export function slaFiltered<Q extends Filterable<Q>>(select: Q, sla: SlaFilter | null, tag: string | null, now = new Date()): Q {
  let q = select.is('merged_into_id', null);
  const at = now.toISOString();
  if (sla === 'breached') q = q.lte('sla_due_at', at);
  if (sla === 'due_soon') q = q.gt('sla_due_at', at).lte('sla_due_at', new Date(now.getTime() + DUE_SOON_MINUTES * 60000).toISOString());
  if (tag) q = q.contains('tags', [tag]);
  return q;
}

/** The URL's SLA filter and tag, each null unless valid. */
export function readSlaFilters(url: URL): { sla: SlaFilter | null; tag: string | null } {
  const sla = SLA_FILTER_OPTIONS.find((o) => o.value === url.searchParams.get('sla'))?.value ?? null;
  const tag = (url.searchParams.get('tag') ?? '').trim().toLowerCase();
  return { sla, tag: TAG_PATTERN.test(tag) ? tag : null };
}
