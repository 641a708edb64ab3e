// Input checks for the functions' JSON bodies; each failure is a 400 with a
// message the settings screens can show as is.
import { HttpError } from './http.ts';

export const ROLES = ['admin', 'member', 'auditor', 'supplier', 'client'] as const;
export type Role = (typeof ROLES)[number];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function requireEmail(value: unknown): string {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!email) throw new HttpError(400, 'Email is required');
  if (email.length > 254 || !EMAIL.test(email)) throw new HttpError(400, 'Please enter a valid email address');
  return email;
}

export function parseRole(value: unknown, fallback?: Role): Role {
  if ((value === undefined || value === null || value === '') && fallback) return fallback;
  if (typeof value === 'string' && (ROLES as readonly string[]).includes(value)) return value as Role;
  throw new HttpError(400, `Role must be one of ${ROLES.join(', ')}`);
}

/** An optional name: trimmed, null when empty, at most 100 characters. */
export function optionalName(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new HttpError(400, `${field} must be text`);
  const name = value.trim();
  if (name.length > 100) throw new HttpError(400, `${field} must be at most 100 characters`);
  return name || null;
}

export function requireUuid(value: unknown, field: string): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw new HttpError(400, `${field} must be a valid id`);
  return value;
}
