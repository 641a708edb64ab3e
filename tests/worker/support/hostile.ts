// The hostile-input generator: from one action's description (where it posts,
// its valid fields and their kinds, its intent) it makes the malformed
// requests a careless or malicious client sends: fields missing or extra,
// values of the wrong type, huge or not UTF-8, the wrong content type, a wrong
// intent, a cross-origin post, a replayed or forged session cookie, another
// tenant's ids. Every one must be refused. The runner (hostile-runner.ts)
// sends them and checks the answer and the database.

/** What a field holds, which decides what a wrong value for it looks like. */
export type FieldKind =
  | 'text' // a line or a paragraph of text
  | 'email'
  | 'password'
  | 'number' // a whole or decimal number
  | 'money' // a decimal amount typed by a person
  | 'date' // YYYY-MM-DD
  | 'choice' // one value of a fixed list
  | 'choices' // checkboxes: the field repeated, one value each
  | 'checkbox' // 'on' or absent
  | 'uuid' // a row id
  | 'json' // JSON typed into a textarea
  | 'file';

export interface Field {
  kind: FieldKind;
  /** A valid value. `{n}` is replaced by the case number, so nothing a case sends is confused with another's. */
  value: string;
  /** Leaving it out (or blank) must be refused. */
  required?: boolean;
  /** For uuid fields: which kind of row the id names, so another tenant's row of that kind can be put in its place. */
  row?: TenantRow;
  /** The longest value the form takes, when it is more than HUGE_LENGTH (a pasted document text): its huge case goes over it. */
  maxLength?: number;
}

/** The rows each test tenant owns and whose ids the actions take. */
export type TenantRow = 'template' | 'integration' | 'member' | 'invitation' | 'lead' | 'contact' | 'quote' | 'invoice' | 'document' | 'bill' | 'conversation' | 'compliance' | 'control' | 'canned-reply' | 'tender-source' | 'tender-search' | 'opportunity' | 'rfp-answer' | 'rfp-file';

/** Who sends the requests: a visitor without a session, or a signed-in user of the fixture. */
export type Actor = 'anonymous' | 'admin' | 'otherAdmin' | 'member' | 'master' | 'northwind';

export interface HostileAction {
  /** Names the action in test titles: '<screen>: <what it does>'. */
  name: string;
  /** The route module whose action (or middleware) answers. */
  route: string;
  /** Where the real form posts; `{id}` is replaced by the id field's value, `{token}` by an invitation token. */
  path: string;
  intent?: string;
  fields: Record<string, Field>;
  actor: Actor;
  /** The action needs a session: replayed and forged cookies must get the sign-in redirect. */
  signedIn: boolean;
  /** Sent as multipart/form-data, as its form does (a file upload). */
  multipart?: boolean;
  /**
   * Which kinds of case apply. Defaults to all. The sidebar toggle, for one,
   * reads no field at all: only the cross-origin refusal applies to it.
   */
  kinds?: readonly CaseKind[];
  /** A body size over what the action reads (default OVERSIZED_BYTES, over the 64 KB of readFormData). */
  oversizedBytes?: number;
}

export const CASE_KINDS = [
  'missing',
  'extra',
  'type',
  'huge',
  'utf8',
  'content-type',
  'intent',
  'cross-origin',
  'replayed-cookie',
  'forged-cookie',
  'other-tenant',
] as const;
export type CaseKind = (typeof CASE_KINDS)[number];

/** A request body part: a text value, or a file, or raw bytes for a text value (not UTF-8). */
export type Part = { name: string; value: string } | { name: string; file: File } | { name: string; bytes: Uint8Array };

export type Body =
  | { type: 'form'; parts: Part[] } // urlencoded, or multipart when the action uploads or a part needs it
  | { type: 'multipart'; parts: Part[] }
  | { type: 'raw'; contentType: string | null; bytes: Uint8Array<ArrayBuffer> };

/**
 * How the session cookie is sent: the actor's own; none; one captured before
 * its user signed out; or forged (garbage, a token whose payload was edited,
 * an unsigned token).
 */
export type Session = 'actor' | 'none' | 'replayed' | 'forged-garbage' | 'forged-edited-jwt' | 'forged-unsigned-jwt';

/** What the answer must be. */
export type Expect =
  | 'refused' // a 4xx page carrying a clear message
  | 'cross-origin' // the Worker's 403 with its message
  | 'sign-in'; // docs/product-guide.md: a visitor without a valid session (or invitation) is sent to /auth

export interface HostileCase {
  name: string;
  kind: CaseKind;
  path: string;
  body: Body;
  headers: Record<string, string>;
  session: Session;
  /** Put another tenant's row ids in the uuid fields (and path). */
  foreignIds?: boolean;
  expect: Expect;
  /** Sent as React Router's JavaScript client sends it: to `<path>.data`, answered in turbo-stream. */
  dataEndpoint?: boolean;
}

export const HUGE_LENGTH = 30_000;
/** Over the 64 KB every form is read within. */
export const OVERSIZED_BYTES = 70 * 1024;

/** Bytes that are not UTF-8: a lone continuation byte, a truncated sequence, an overlong slash, 0xFF. */
export const NOT_UTF8: Uint8Array<ArrayBuffer> = new Uint8Array([0x48, 0x69, 0x80, 0x20, 0xc3, 0x28, 0x20, 0xc0, 0xaf, 0x20, 0xff]);

const WRONG_VALUES: Record<FieldKind, { label: string; value: string }[]> = {
  text: [],
  password: [],
  email: [{ label: 'not an email', value: 'not-an-email' }],
  number: [
    { label: 'not a number', value: 'twelve' },
    { label: 'Infinity', value: '1e400' },
  ],
  money: [
    { label: 'not an amount', value: '12,5O' },
    { label: 'a negative amount', value: '-1' },
  ],
  date: [
    { label: 'a day that does not exist', value: '2025-02-30' },
    { label: 'not a date', value: 'next tuesday' },
  ],
  choice: [{ label: 'a value off the list', value: 'not-on-the-list' }],
  choices: [{ label: 'a value off the list', value: 'not-on-the-list' }],
  checkbox: [{ label: 'not a checkbox value', value: 'maybe' }],
  uuid: [
    { label: 'not an id', value: 'not-a-uuid' },
    { label: 'an SQL injection', value: "' or 1=1 --" },
    { label: 'an id that names no row', value: '6f1c1d9e-0000-4000-8000-00000000dead' },
  ],
  json: [{ label: 'broken JSON', value: '{"unterminated": ' }],
  file: [{ label: 'text in place of a file', value: 'not a file' }],
};

const TEXTUAL: readonly FieldKind[] = ['text', 'email', 'password', 'json', 'date', 'money', 'number', 'uuid'];

function validParts(action: HostileAction, overrides: Record<string, string | null> = {}): Part[] {
  const parts: Part[] = [];
  if (action.intent !== undefined && overrides.intent !== null) parts.push({ name: 'intent', value: overrides.intent ?? action.intent });
  for (const [name, field] of Object.entries(action.fields)) {
    const override = overrides[name];
    if (override === null) continue;
    if (field.kind === 'file' && override === undefined) parts.push({ name, file: samplePdf() });
    else parts.push({ name, value: override ?? field.value });
  }
  return parts;
}

export function samplePdf(name = 'hostile.pdf'): File {
  return new File([new TextEncoder().encode('%PDF-1.4\n%hostile\n')], name, { type: 'application/pdf' });
}

function form(action: HostileAction, parts: Part[]): Body {
  const needsMultipart = action.multipart || parts.some((part) => !('value' in part));
  return { type: needsMultipart ? 'multipart' : 'form', parts };
}

function urlencoded(parts: Part[]): string {
  const params = new URLSearchParams();
  for (const part of parts) if ('value' in part) params.append(part.name, part.value);
  return params.toString();
}

/** All the malformed requests for one action, each named after what is wrong with it. */
export function hostileCases(action: HostileAction, siblings: readonly HostileAction[] = []): HostileCase[] {
  const kinds = new Set<CaseKind>(action.kinds ?? CASE_KINDS);
  const cases: HostileCase[] = [];
  const add = (kind: CaseKind, name: string, body: Body, extra: Partial<HostileCase> = {}) => {
    if (!kinds.has(kind)) return;
    cases.push({ name: `${kind}: ${name}`, kind, path: action.path, body, headers: {}, session: 'actor', expect: 'refused', ...extra });
  };
  const fields = Object.entries(action.fields);
  const required = fields.filter(([, field]) => field.required);
  const scalar = fields.filter(([, field]) => field.kind !== 'choices' && field.kind !== 'file');

  // Missing: nothing at all, then each required field (and the intent) left out, or blank.
  add('missing', 'an empty body', form(action, []));
  if (action.intent !== undefined) add('missing', 'no intent', form(action, validParts(action, { intent: null })));
  for (const [name, field] of required) {
    add('missing', `no ${name}`, form(action, validParts(action, { [name]: null })));
    if (field.kind !== 'file') add('missing', `${name} blank`, form(action, validParts(action, { [name]: '   ' })));
  }

  // Extra: every field sent twice with different values; only unknown fields; server-owned
  // columns and prototype-polluting names beside a missing required field.
  if (scalar.length > 0) {
    const doubled = validParts(action).flatMap((part) =>
      'value' in part && action.fields[part.name]?.kind !== 'choices' ? [part, { name: part.name, value: `${part.value}-again` }] : [part],
    );
    add('extra', 'every field sent twice', form(action, doubled));
  }
  add(
    'extra',
    'only fields the form does not have',
    form(action, [
      { name: 'unexpected', value: 'x' },
      { name: 'CONTACT', value: 'y' },
      { name: 'data[]', value: 'z' },
    ]),
  );
  const firstRequired = required[0]?.[0] ?? (action.intent !== undefined ? 'intent' : undefined);
  if (firstRequired) {
    add(
      'extra',
      `server-owned columns and prototype keys, ${firstRequired} missing`,
      form(action, [
        ...validParts(action, { [firstRequired]: null }),
        { name: 'account_id', value: '00000000-0000-4000-8000-000000000001' },
        { name: 'created_by', value: '00000000-0000-4000-8000-000000000002' },
        { name: 'is_master', value: 'true' },
        { name: '__proto__.polluted', value: 'yes' },
        { name: 'constructor.prototype.polluted', value: 'yes' },
        { name: '__proto__[polluted]', value: 'yes' },
      ]),
    );
  }

  // Wrong types.
  for (const [name, field] of fields) {
    for (const wrong of WRONG_VALUES[field.kind]) {
      add('type', `${name}: ${wrong.label}`, form(action, validParts(action, { [name]: wrong.value })));
    }
    if (field.kind === 'text' || field.kind === 'password' || field.kind === 'email') {
      const parts = validParts(action).map((part) => (part.name === name ? { name, file: new File(['text'], 'value.txt', { type: 'text/plain' }) } : part));
      add('type', `${name}: a file in place of text`, { type: 'multipart', parts });
    }
  }

  // Huge: each field far over any limit a form has; the whole body over the read limit.
  for (const [name, field] of scalar) {
    if (field.kind === 'checkbox') continue;
    const length = Math.max(HUGE_LENGTH, (field.maxLength ?? 0) + 1);
    add('huge', `${name}: ${length.toLocaleString('en-US')} characters`, form(action, validParts(action, { [name]: 'W'.repeat(length) })));
  }
  const oversized = action.oversizedBytes ?? OVERSIZED_BYTES;
  add('huge', `a ${Math.round(oversized / 1024).toLocaleString('en-US')} KB body`, form(action, [...validParts(action), { name: 'padding', value: 'p'.repeat(oversized) }]));

  // Not UTF-8: each textual value with invalid bytes, percent-encoded and (once) raw in a multipart part.
  const textual = fields.filter(([, field]) => TEXTUAL.includes(field.kind));
  for (const [name] of textual) {
    const encoded = [...validParts(action, { [name]: null }).filter((part) => 'value' in part)];
    const rest = urlencoded(encoded);
    const bad = `${encodeURIComponent(name)}=${[...NOT_UTF8].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('')}`;
    if (!action.multipart) {
      add('utf8', `${name}: percent-encoded bytes that are not UTF-8`, {
        type: 'raw',
        contentType: 'application/x-www-form-urlencoded',
        bytes: new TextEncoder().encode(rest ? `${rest}&${bad}` : bad),
      });
    }
  }
  if (textual.length > 0) {
    const [name] = textual[0];
    add('utf8', `${name}: raw bytes that are not UTF-8 in a multipart part`, {
      type: 'multipart',
      parts: validParts(action).map((part) => (part.name === name ? { name, bytes: NOT_UTF8 } : part)),
    });
  }

  // Wrong content types, the fields themselves valid.
  const valid = validParts(action);
  const asJson = Object.fromEntries(valid.filter((part) => 'value' in part).map((part) => [part.name, (part as { value: string }).value]));
  const encoder = new TextEncoder();
  add('content-type', 'JSON', { type: 'raw', contentType: 'application/json', bytes: encoder.encode(JSON.stringify(asJson)) });
  add('content-type', 'text/plain', { type: 'raw', contentType: 'text/plain', bytes: encoder.encode(urlencoded(valid)) });
  add('content-type', 'no Content-Type', { type: 'raw', contentType: null, bytes: encoder.encode(urlencoded(valid)) });
  add('content-type', 'XML', { type: 'raw', contentType: 'application/xml', bytes: encoder.encode('<form><intent>x</intent></form>') });
  add('content-type', 'multipart without its boundary', {
    type: 'raw',
    contentType: 'multipart/form-data',
    bytes: encoder.encode(`--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n`),
  });
  add('content-type', 'a form content type over a JSON body', {
    type: 'raw',
    contentType: 'application/x-www-form-urlencoded',
    bytes: encoder.encode(JSON.stringify(asJson)),
  });

  // Wrong intents.
  if (action.intent !== undefined) {
    add('intent', 'an unknown intent', form(action, validParts(action, { intent: 'drop-table' })));
    add('intent', 'the intent in capitals', form(action, validParts(action, { intent: action.intent.toUpperCase() })));
    add('intent', 'two intents', form(action, [...validParts(action), { name: 'intent', value: 'delete' }]));
    // Another intent of the same action, with this form's fields, when they would not do for it.
    const ours = new Set(Object.keys(action.fields));
    for (const sibling of siblings) {
      if (sibling === action || sibling.route !== action.route || sibling.intent === undefined || sibling.intent === action.intent) continue;
      // An intent for another audience (sign-in for a signed-in visitor) has its own cases.
      if (sibling.signedIn !== action.signedIn) continue;
      const missing = Object.entries(sibling.fields).some(([name, field]) => field.required && !ours.has(name));
      if (missing) add('intent', `intent ${sibling.intent} with the ${action.intent} fields`, form(action, validParts(action, { intent: sibling.intent })));
    }
  } else {
    add('intent', 'an intent this action does not have', form(action, [{ name: 'intent', value: 'delete' }, { name: 'id', value: '00000000-0000-4000-8000-000000000003' }]));
  }

  // Cross-origin: the valid form, from elsewhere.
  const crossOrigin = (name: string, headers: Record<string, string>) =>
    add('cross-origin', name, form(action, validParts(action)), { headers, expect: 'cross-origin' });
  crossOrigin('from another site', { Origin: 'https://evil.example' });
  crossOrigin('Origin null (a sandboxed frame)', { Origin: 'null' });
  crossOrigin('the same host over https', { Origin: 'https://ops-hub.test' });
  crossOrigin('a sibling subdomain', { Origin: 'http://evil.ops-hub.test' });
  crossOrigin('neither Origin nor Referer', { Origin: '' });
  crossOrigin('another site as Referer, no Origin', { Origin: '', Referer: 'https://evil.example/ops-hub.test/' });

  // Sessions: the valid form, with a session that is over or was never issued.
  if (action.signedIn) {
    const session = (kind: 'replayed-cookie' | 'forged-cookie', name: string, which: Session) =>
      add(kind, name, form(action, validParts(action)), { session: which, expect: 'sign-in' });
    session('replayed-cookie', 'the cookie of a session that was signed out', 'replayed');
    session('forged-cookie', 'no cookie at all', 'none');
    session('forged-cookie', 'a session cookie of garbage', 'forged-garbage');
    session('forged-cookie', 'a real token with its payload edited to another user', 'forged-edited-jwt');
    session('forged-cookie', 'an unsigned token (alg none)', 'forged-unsigned-jwt');
  }

  // A token in the path is the session of a public action (an invitation): a used one, one never issued.
  if (action.path.includes('{token}')) {
    const token = (kind: 'replayed-cookie' | 'forged-cookie', name: string, value: string) =>
      add(kind, name, form(action, validParts(action)), { path: action.path.replace('{token}', value), expect: 'sign-in' });
    token('replayed-cookie', 'an invitation token already used', '{used-token}');
    token('forged-cookie', 'an invitation token never issued', 'f'.repeat(64));
    token('forged-cookie', 'an invitation token that is not one', '..%2F..%2Fsettings%2Fusers');
  }

  // Another tenant's ids, in every id field (and the path), the form otherwise valid.
  if (fields.some(([, field]) => field.row)) {
    add('other-tenant', "another tenant's row", form(action, validParts(action)), { foreignIds: true });
  }

  // The same action as the JavaScript client reaches it (`<path>.data`), for one case of each kind:
  // its refusals travel differently (a toast cookie, a redirect as a 202 payload).
  const seen = new Set<CaseKind>();
  const viaData = cases.filter((c) => !seen.has(c.kind) && Boolean(seen.add(c.kind)) && !action.path.includes('sidebar='));
  for (const c of viaData) {
    // A bad invitation token: the page's loader sends a document to /auth, but the
    // JavaScript client gets the action's own answer, a 400 with the toast.
    const expect = c.expect === 'sign-in' && !action.signedIn ? 'refused' : c.expect;
    cases.push({ ...c, name: `${c.name} (via the data endpoint)`, path: dataPath(c.path), dataEndpoint: true, expect });
  }
  return cases;
}

/** `/quotes?new` → `/quotes.data?new`: where the JavaScript client posts a form. */
export function dataPath(path: string): string {
  const [pathname, search] = path.split(/\?(.*)/s, 2);
  return `${pathname}.data${search !== undefined ? `?${search}` : ''}`;
}

/** The request body and its Content-Type, with `{n}` made the case number and ids put in. */
export function encodeBody(body: Body, fill: (value: string) => string): { body: BodyInit | null; contentType: string | null } {
  if (body.type === 'raw') {
    const text = new TextDecoder().decode(body.bytes);
    // Only valid UTF-8 bodies can hold placeholders; raw invalid bytes go as they are.
    const filled = text.includes('{') && !text.includes('\uFFFD') ? new TextEncoder().encode(fill(text)) : body.bytes;
    return { body: filled, contentType: body.contentType };
  }
  if (body.type === 'form') {
    const params = new URLSearchParams();
    for (const part of body.parts) if ('value' in part) params.append(part.name, fill(part.value));
    return { body: params.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  // Multipart is written by hand: FormData cannot carry bytes that are not UTF-8 in a text part.
  const boundary = `----hostile${crypto.randomUUID().replaceAll('-', '')}`;
  const chunks: Uint8Array[] = [];
  const encoder = new TextEncoder();
  for (const part of body.parts) {
    if ('file' in part) {
      chunks.push(
        encoder.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.file.name}"\r\nContent-Type: ${part.file.type || 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(FILE_BYTES.get(part.file) ?? encoder.encode('%PDF-1.4\n'));
    } else {
      chunks.push(encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n`));
      chunks.push('bytes' in part ? part.bytes : encoder.encode(fill(part.value)));
    }
    chunks.push(encoder.encode('\r\n'));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  return { body: concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Files are built synchronously above; their bytes are read once, before the cases run. */
const FILE_BYTES = new WeakMap<File, Uint8Array>();
export async function loadFiles(cases: readonly HostileCase[]): Promise<void> {
  for (const c of cases) {
    if (c.body.type === 'raw') continue;
    for (const part of c.body.parts) if ('file' in part) FILE_BYTES.set(part.file, new Uint8Array(await part.file.arrayBuffer()));
  }
}

function concat(chunks: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
