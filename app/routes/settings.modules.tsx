import type { Route } from './+types/settings.modules';

export const meta: Route.MetaFunction = () => [{ title: 'Modules' }];

// Filled in by a later issue; present now so the route table is complete.
export default function SettingsModules() {
  return <h1 className="p-6 text-2xl font-bold">Modules</h1>;
}
