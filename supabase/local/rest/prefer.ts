// The request headers that steer PostgREST: Prefer, Accept, Range and the
// schema profile headers.
import { parseError, RestError } from './errors.ts';

export interface Preferences {
  return: 'minimal' | 'representation' | 'headers-only' | null;
  count: 'exact' | null;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  missing: 'default' | null;
  tx: 'commit' | 'rollback' | null;
  /** The preferences understood, echoed in Preference-Applied. */
  applied: string[];
}

export function parsePrefer(header: string | null): Preferences {
  const prefs: Preferences = { return: null, count: null, resolution: null, missing: null, tx: null, applied: [] };
  for (const token of (header ?? '').split(',').map((t) => t.trim()).filter(Boolean)) {
    const [name, value] = token.split('=').map((t) => t.trim());
    if (name === 'return' && (value === 'minimal' || value === 'representation' || value === 'headers-only')) prefs.return = value;
    else if (name === 'count' && (value === 'exact' || value === 'planned' || value === 'estimated')) prefs.count = 'exact';
    else if (name === 'resolution' && (value === 'merge-duplicates' || value === 'ignore-duplicates')) prefs.resolution = value;
    else if (name === 'missing' && value === 'default') prefs.missing = 'default';
    else if (name === 'tx' && (value === 'commit' || value === 'rollback')) prefs.tx = value;
    else continue;
    prefs.applied.push(token);
  }
  return prefs;
}

export interface AcceptedFormat {
  /** vnd.pgrst.object+json: exactly one row, sent as an object. */
  single: boolean;
  stripNulls: boolean;
}

const UNDERSTOOD = ['*/*', 'application/*', 'application/json', 'application/vnd.pgrst.array+json', 'application/vnd.pgrst.object+json', 'application/openapi+json'];

export function parseAccept(header: string | null): AcceptedFormat {
  if (!header) return { single: false, stripNulls: false };
  const types = header.split(',').map((part) => {
    const [type, ...options] = part.split(';').map((t) => t.trim().toLowerCase());
    return { type, stripNulls: options.includes('nulls=stripped') };
  });
  const known = types.find((t) => UNDERSTOOD.includes(t.type));
  if (!known) {
    throw new RestError(406, 'PGRST107', `None of these media types are available: ${header}`);
  }
  return { single: known.type === 'application/vnd.pgrst.object+json', stripNulls: known.stripNulls };
}

/** `Range: 0-9` (items) → offset 0, limit 10. */
export function parseRange(header: string | null): { offset: number; limit: number | null } | null {
  if (!header) return null;
  const match = /^(?:items=)?\s*(\d+)-(\d*)$/.exec(header.trim());
  if (!match) throw parseError(`Range header (${header})`, 'expecting "<first>-<last>"');
  const first = Number(match[1]);
  if (match[2] === '') return { offset: first, limit: null };
  const last = Number(match[2]);
  if (last < first) throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', { details: `The last item ${last} comes before the first ${first}.` });
  return { offset: first, limit: last - first + 1 };
}

/** Only the public schema is exposed, as in a default Supabase project. */
export function checkProfile(request: Request): void {
  for (const header of ['accept-profile', 'content-profile']) {
    const schema = request.headers.get(header);
    if (schema !== null && schema !== 'public') {
      throw new RestError(406, 'PGRST106', `Invalid schema: ${schema}`, { hint: 'Only the following schemas are exposed: public' });
    }
  }
}
