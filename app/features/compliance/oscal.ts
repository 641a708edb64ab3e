// Reading a control catalogue published in OSCAL JSON (NIST's Open Security
// Controls Assessment Language; decision 063): catalog.uuid, its metadata's
// title and version, and every control of its groups (nested groups and
// control enhancements included), each with its label, family, title and the
// prose of its statement. Untrusted input: at most 5 MB, 5000 controls, 12
// levels deep; control characters removed; HTML kept as text (React escapes
// it on the page, the database stores it as typed). Pure, for the route and tests.
export const MAX_OSCAL_BYTES = 5 * 1024 * 1024;
export const MAX_OSCAL_CONTROLS = 5000;
const MAX_DEPTH = 12;

// A type, not an interface: it is passed as JSON to the import function.
export type OscalControl = {
  key: string;
  label: string;
  family: string | null;
  title: string;
  statement: string | null;
};

export interface OscalCatalogue {
  uuid: string;
  title: string;
  version: string | null;
  oscalVersion: string | null;
  controls: OscalControl[];
}

export type OscalResult = { ok: true; catalogue: OscalCatalogue } | { ok: false; message: string };

export const OSCAL_MESSAGES = {
  tooLarge: 'The catalogue is too large: the limit is 5 MB',
  notJson: 'This file is not JSON',
  notOscal: 'This file is not an OSCAL catalogue (no catalog with a uuid, metadata title and controls)',
  tooMany: `The catalogue has too many controls (${MAX_OSCAL_CONTROLS} at most)`,
  noControls: 'The catalogue has no controls',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KEY = /^[A-Za-z0-9_.:-]{1,100}$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** One line of text: control characters (line breaks too) become spaces, runs of spaces one, at most `max`. */
export function line(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, max);
}

function propLabel(item: Json): string | null {
  for (const p of list(item.props)) if (isObject(p) && p.name === 'label' && typeof p.value === 'string') return p.value;
  return null;
}

/** The statement's prose, its items' labels before them, parameters as [their label]. */
function statementOf(control: Json, params: Map<string, string>): string | null {
  const out: string[] = [];
  const walk = (part: Json, depth: number) => {
    if (depth > MAX_DEPTH || out.join(' ').length > 10_000) return;
    const prose = typeof part.prose === 'string' ? part.prose.replace(/\{\{\s*insert:\s*param,\s*([^}\s]+)\s*\}\}/g, (_m, id: string) => `[${params.get(id) ?? id}]`) : '';
    const label = propLabel(part);
    if (prose || label) out.push([label, prose].filter(Boolean).join(' '));
    for (const child of list(part.parts)) if (isObject(child)) walk(child, depth + 1);
  };
  for (const part of list(control.parts)) if (isObject(part) && part.name === 'statement') walk(part, 0);
  const text = out.map((s) => line(s, 10_000)).filter(Boolean).join('\n').slice(0, 10_000);
  return text || null;
}

export function parseOscalCatalogue(text: string): OscalResult {
  if (new TextEncoder().encode(text).length > MAX_OSCAL_BYTES) return { ok: false, message: OSCAL_MESSAGES.tooLarge };
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return { ok: false, message: OSCAL_MESSAGES.notJson };
  }
  const catalog = isObject(root) ? root.catalog : null;
  if (!isObject(catalog) || typeof catalog.uuid !== 'string' || !UUID.test(catalog.uuid) || !isObject(catalog.metadata)) {
    return { ok: false, message: OSCAL_MESSAGES.notOscal };
  }
  const title = line(catalog.metadata.title, 300);
  if (!title) return { ok: false, message: OSCAL_MESSAGES.notOscal };
  const controls: OscalControl[] = [];
  const seen = new Set<string>();
  let tooMany = false;
  const addControl = (control: Json, family: string | null, depth: number) => {
    if (depth > MAX_DEPTH || tooMany) return;
    const key = typeof control.id === 'string' && KEY.test(control.id) ? control.id : null;
    const controlTitle = line(control.title, 300);
    if (key && controlTitle && !seen.has(key)) {
      if (controls.length >= MAX_OSCAL_CONTROLS) {
        tooMany = true;
        return;
      }
      seen.add(key);
      const params = new Map<string, string>();
      for (const p of list(control.params)) {
        if (isObject(p) && typeof p.id === 'string') params.set(p.id, line(p.label, 200) || 'assignment');
      }
      controls.push({ key, label: line(propLabel(control) ?? key.toUpperCase(), 100), family, title: controlTitle, statement: statementOf(control, params) });
    }
    for (const child of list(control.controls)) if (isObject(child)) addControl(child, family, depth + 1);
  };
  const addGroup = (group: Json, depth: number) => {
    if (depth > MAX_DEPTH) return;
    const family = line(group.title, 300) || null;
    for (const c of list(group.controls)) if (isObject(c)) addControl(c, family, depth + 1);
    for (const g of list(group.groups)) if (isObject(g)) addGroup(g, depth + 1);
  };
  for (const g of list(catalog.groups)) if (isObject(g)) addGroup(g, 0);
  for (const c of list(catalog.controls)) if (isObject(c)) addControl(c, null, 0);
  if (tooMany) return { ok: false, message: OSCAL_MESSAGES.tooMany };
  if (controls.length === 0) return { ok: false, message: OSCAL_MESSAGES.noControls };
  return {
    ok: true,
    catalogue: {
      uuid: catalog.uuid.toLowerCase(),
      title,
      version: line(catalog.metadata.version, 100) || null,
      oscalVersion: line(catalog.metadata['oscal-version'], 40) || null,
      controls,
    },
  };
}
