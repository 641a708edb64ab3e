import type { Route } from './+types/settings.integrations';

export const meta: Route.MetaFunction = () => [{ title: 'Integrations' }];

// Filled in by a later issue; present now so the route table is complete.
export default function SettingsIntegrations() {
  return <h1 className="p-6 text-2xl font-bold">Integrations</h1>;
}
