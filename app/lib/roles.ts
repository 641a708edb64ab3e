// The roles of an account (their badge colours are in tones.ts). Staff (admin, member, auditor)
// are the company's own people; clients and suppliers are outsiders who see
// only what is addressed to them (docs/decisions/012-role-matrix.md).

export const ROLES = ['admin', 'member', 'auditor', 'supplier', 'client'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_INVITE_ROLE: Role = 'member';

export function roleLabel(role: string): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The company's own people: they see the account's business screens. */
export function isStaff(role: string | null | undefined): boolean {
  return role === 'admin' || role === 'member' || role === 'auditor';
}

/** People outside the company (clients, suppliers): they see only what is addressed to them. */
export function isExternal(role: string | null | undefined): boolean {
  return role === 'client' || role === 'supplier';
}

/** Who may create, change and delete business records. */
export function canWriteBusiness(role: string | null | undefined): boolean {
  return role === 'admin' || role === 'member';
}

/** Who may read the settings screens (admins edit them; auditors only look). */
export function canReadSettings(role: string | null | undefined): boolean {
  return role === 'admin' || role === 'auditor';
}
