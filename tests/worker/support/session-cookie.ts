// The session cookie @supabase/ssr writes (`sb-<ref>-auth-token`, `base64-` +
// base64url of the session's JSON, cut into `.0`, `.1`, … chunks when long),
// read and rewritten, so a test can hand the Worker a session whose access
// token was signed another way.
import { inject } from 'vitest';
import type { Visitor } from './app';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Provided by global-setup.ts. */
    jwtSecret: string;
  }
}

const CHUNK = 3180;
const SESSION_COOKIE = /^(sb-.+-auth-token)(?:\.(\d+))?$/;

interface Session {
  access_token: string;
  [key: string]: unknown;
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64url = (text: string) => atob(text.replace(/-/g, '+').replace(/_/g, '/'));

function sessionCookies(visitor: Visitor): { base: string; names: string[] } {
  const names = visitor.names().filter((name) => SESSION_COOKIE.test(name));
  if (names.length === 0) throw new Error('the visitor has no session cookie');
  const base = SESSION_COOKIE.exec(names[0])![1];
  const order = (name: string) => Number(SESSION_COOKIE.exec(name)![2] ?? -1);
  return { base, names: names.sort((a, b) => order(a) - order(b)) };
}

export function readSession(visitor: Visitor): Session {
  const { names } = sessionCookies(visitor);
  const joined = names.map((name) => decodeURIComponent(visitor.value(name)!)).join('');
  return JSON.parse(fromBase64url(joined.replace(/^base64-/, ''))) as Session;
}

export function writeSession(visitor: Visitor, session: Session): void {
  const { base, names } = sessionCookies(visitor);
  for (const name of names) visitor.set(name, undefined);
  const value = `base64-${base64url(new TextEncoder().encode(JSON.stringify(session)))}`;
  if (value.length <= CHUNK) {
    visitor.set(base, value);
    return;
  }
  for (let index = 0; index * CHUNK < value.length; index += 1) visitor.set(`${base}.${index}`, value.slice(index * CHUNK, (index + 1) * CHUNK));
}

/** The JWT's header and claims. */
export function decodeJwt(token: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [header, claims] = token.split('.').slice(0, 2).map((part) => JSON.parse(fromBase64url(part)) as Record<string, unknown>);
  return { header, claims };
}

/** The same claims signed HS256 with the backend's JWT secret: the token a project without a signing key issues. */
export async function resignHs256(token: string): Promise<string> {
  const { claims } = decodeJwt(token);
  const encode = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));
  const input = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(inject('jwtSecret')), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(input)));
  return `${input}.${base64url(signature)}`;
}
