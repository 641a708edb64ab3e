// Roles of spec §6 and their badge colours: admin red, auditor blue, supplier purple, client green.
import type { BadgeVariant } from '~/components/ui/badge';

export const ROLES = ['admin', 'auditor', 'supplier', 'client'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_INVITE_ROLE: Role = 'client';

export const ROLE_BADGE: Record<Role, BadgeVariant> = {
  admin: 'red',
  auditor: 'blue',
  supplier: 'purple',
  client: 'green',
};

export function roleLabel(role: string): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
