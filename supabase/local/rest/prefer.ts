// The request headers that steer PostgREST: Prefer, Accept, Range and the
// schema profile headers.
import { parseError, RestError } from './errors.ts';

export interface Preferences {
  return: 'minimal' | 'representation' | 'headers-only' | null;
  count: 'exact' | 'planned' | 'estimated' | null;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  missing: 'default' | null;
  tx: 'commit' | 'rollback' | null;
  handling: 'strict' | 'lenient' | null;
  maxAffected: number | null;
  /** The preferences understood, echoed in Preference-Applied. */
  applied: string[];
}

export function parsePrefer(header: string | null): Preferences {
  const prefs: Preferences = { return: null, count: null, resolution: null, missing: null, tx: null, handling: null, maxAffected: null, applied: [] };
  for (const token of (header ?? '').split(',').map((t) => t.trim()).filter(Boolean)) {
    const [name, value] = token.split('=').map((t) => t.trim());
    if (name === 'return' && (value === 'minimal' || value === 'representation' || value === 'headers-only')) prefs.return = value;
    else if (name === 'count' && (value === 'exact' || value === 'planned' || value === 'estimated')) prefs.count = value;
    else if (name === 'resolution' && (value === 'merge-duplicates' || value === 'ignore-duplicates')) prefs.resolution = value;
    else if (name === 'missing' && value === 'default') prefs.missing = 'default';
    else if (name === 'tx' && (value === 'commit' || value === 'rollback')) prefs.tx = value;
    else if (name === 'handling' && (value === 'strict' || value === 'lenient')) prefs.handling = value;
    else if (name === 'max-affected' && /^\d{1,15}$/.test(value ?? '')) {
      prefs.maxAffected = Number(value);
      continue; // echoed only with handling=strict, below
    } else continue;
    prefs.applied.push(token);
  }
  if (prefs.handling === 'strict' && prefs.maxAffected !== null) prefs.applied.push(`max-affected=${prefs.maxAffected}`);
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

/**
 * The schema a request addresses, from the exposed ones (supabase/config.toml
 * `[api] schemas`, the first the default): Accept-Profile for reads,
 * Content-Profile for writes, as PostgREST's getSchema. `negotiated`: more
 * than one is exposed, so the answer names it in Content-Profile.
 */
export function profileSchema(request: Request, exposed: readonly string[]): { schema: string; negotiated: boolean } {
  const writes = ['POST', 'PATCH', 'PUT', 'DELETE'].includes(request.method);
  const asked = request.headers.get(writes ? 'content-profile' : 'accept-profile');
  if (asked === null) return { schema: exposed[0], negotiated: exposed.length !== 1 };
  if (!exposed.includes(asked)) {
    throw new RestError(406, 'PGRST106', `Invalid schema: ${asked}`, { hint: `Only the following schemas are exposed: ${exposed.join(', ')}` });
  }
  return { schema: asked, negotiated: true };
}
