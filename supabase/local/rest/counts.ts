// count=planned and count=estimated, as PostgREST's MainTx computes them.
import type { Preferences } from './prefer.ts';

/** Hosted Supabase's db-max-rows: above it, count=estimated uses the planner's estimate. */
const MAX_ROWS = 1000;

/** The top plan node's row estimate of an `explain (format json)`. */
export function plannedRows(rows: Record<string, unknown>[]): number | null {
  const raw = rows[0] ? Object.values(rows[0])[0] : null;
  const explained = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[] | null;
  const estimate = explained?.[0]?.Plan?.['Plan Rows'];
  return typeof estimate === 'number' ? estimate : null;
}

/** planned: the estimate; estimated: the exact count up to max-rows, above it the larger of the two (PostgREST's MainTx). */
export function countFor(kind: Preferences['count'], exact: number | null, planned: number | null): number | null {
  if (kind === 'planned') return planned;
  if (exact !== null && exact > MAX_ROWS && planned !== null) return Math.max(exact, planned);
  return exact;
}

