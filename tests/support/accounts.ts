// The people every test layer signs in as or makes up: the seed's demo
// accounts (supabase/seed.sql, all with one password), fresh addresses that
// no other test or run uses, and the roles of an account (app/lib/roles.ts).
// No Node or Workers API here: the Worker layer imports this inside workerd
// (so it is listed in tsconfig.cloudflare.json), the Node layers as well.
// (app/lib/roles.ts imports a UI type: that is why tsconfig.node.json lists
// badge.tsx and maps its `~/` imports.)
export { ROLES, type Role } from '../../app/lib/roles.ts';

export interface Credentials {
  email: string;
  password: string;
}

/** The password of every demo account of the seed. */
export const DEMO_PASSWORD = 'demo1234';

/** Dana, the master account's admin (OpsHub). */
export const DEMO_ADMIN: Credentials = { email: 'demo@opshub.test', password: DEMO_PASSWORD };
/** The master account's auditor: reads the audit log and the quotes, writes nothing. */
export const DEMO_AUDITOR: Credentials = { email: 'auditor@opshub.test', password: DEMO_PASSWORD };
/** The master account's member (staff): business records, no settings. */
export const DEMO_MEMBER: Credentials = { email: 'member@opshub.test', password: DEMO_PASSWORD };
/** John of Acme, a client of the master account: sees only the quotes addressed to him. */
export const DEMO_CLIENT: Credentials = { email: 'john@acme.test', password: DEMO_PASSWORD };
/** The admin of the second account (Northwind Traders). */
export const DEMO_NORTHWIND_ADMIN: Credentials = { email: 'admin@northwind.test', password: DEMO_PASSWORD };

let counter = 0;
/**
 * An address no other test, test file or earlier run has used: `<label>-<time>-<n>-<random>@example.test`.
 * (The clock alone will not do: inside workerd it stands still between I/O.)
 */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}
