import type { Route } from './+types/settings.audit-logs';

export const meta: Route.MetaFunction = () => [{ title: 'Audit Logs' }];

// Filled in by a later issue; present now so the route table is complete.
export default function SettingsAuditLogs() {
  return <h1 className="p-6 text-2xl font-bold">Audit Logs</h1>;
}
