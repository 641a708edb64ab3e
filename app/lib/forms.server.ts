// Reading a submitted form without ever failing with a 500: a wrong content
// type, a broken body or an oversized one all become an empty form, which the
// schema then answers with field errors and a 400. Text that is not UTF-8 (no
// browser sends it) is refused outright, so it never reaches the database as
// replacement characters.
import { data } from 'react-router';

/** Plenty for every form of the product; file uploads set their own limit. */
export const MAX_FORM_BYTES = 64 * 1024;

export const NOT_UTF8_MESSAGE = 'This form contains text that is not valid UTF-8 and has been refused.';

export async function readFormData(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData> {
  const length = Number(request.headers.get('Content-Length') ?? '0');
  if (length > maxBytes) return new FormData();
  const type = request.headers.get('Content-Type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) {
    return new FormData();
  }
  let body: ArrayBuffer;
  let formData: FormData;
  try {
    body = await request.arrayBuffer();
    if (body.byteLength > maxBytes) return new FormData();
    formData = await new Response(body, { headers: { 'Content-Type': type } }).formData();
  } catch {
    return new FormData();
  }
  refuseTextNotUtf8(new Uint8Array(body), type, formData);
  return formData;
}

const strict = new TextDecoder('utf-8', { fatal: true });
const REPLACEMENT_BYTES = [0xef, 0xbf, 0xbd];

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Each name and value of a urlencoded body, percent-decoded to bytes, is UTF-8. */
function urlencodedIsUtf8(body: Uint8Array): boolean {
  if (!isUtf8(body)) return false;
  const encoder = new TextEncoder();
  for (const piece of strict.decode(body).split(/[&=]/)) {
    if (!piece.includes('%')) continue;
    const bytes: number[] = [];
    for (const [token] of piece.matchAll(/%[0-9a-fA-F]{2}|[^%]+|%/g)) {
      if (token.length === 3 && token.startsWith('%')) bytes.push(Number.parseInt(token.slice(1), 16));
      // Not push(...bytes): a long value (a drawn signature's base64) would overflow the call stack.
      else for (const byte of encoder.encode(token)) bytes.push(byte);
    }
    if (!isUtf8(new Uint8Array(bytes))) return false;
  }
  return true;
}

function contains(haystack: Uint8Array, needle: number[]): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i += 1) {
    for (let j = 0; j < needle.length; j += 1) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Throws a 400 when a text value of the form was not UTF-8. A multipart
 * parser replaces bad bytes with U+FFFD: one the client did not send itself
 * means its text was not UTF-8.
 */
export function refuseTextNotUtf8(body: Uint8Array, type: string, formData: FormData): void {
  const valid = type.startsWith('application/x-www-form-urlencoded')
    ? urlencodedIsUtf8(body)
    : ![...formData.entries()].some(
        ([name, value]) => (typeof value === 'string' && value.includes('\uFFFD')) || name.includes('\uFFFD'),
      ) || contains(body, REPLACEMENT_BYTES);
  if (!valid) throw data({ error: NOT_UTF8_MESSAGE }, { status: 400 });
}

/**
 * Fields our forms always send right and no person types (the intent, a row
 * id, the state a toggle button asks for). A submission failing on one of them, or on a field it did not send at
 * all (a form always sends its inputs, if only empty), was not sent by our
 * forms as they are: it was altered or made by hand, and the page might show
 * no error next to any field. The action answers it with ALTERED_FORM_MESSAGE.
 */
export const HIDDEN_FIELDS = ['', 'intent', 'id', 'active'] as const;

export const ALTERED_FORM_MESSAGE = 'This form arrived incomplete or altered and has been refused. Reload the page and try again.';

export function isAlteredForm(
  submission: { status?: string; payload?: Record<string, unknown>; error?: Record<string, string[] | null> | null },
  hidden: readonly string[] = HIDDEN_FIELDS,
): boolean {
  if (submission.status === 'success') return false;
  const sent = submission.payload ?? {};
  return Object.entries(submission.error ?? {})
    .filter(([, messages]) => messages && messages.length > 0)
    .some(([name]) => hidden.includes(name) || !Object.hasOwn(sent, name.split(/[.[]/)[0]));
}
