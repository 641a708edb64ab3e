import type { Route } from './+types/settings.website';

export const meta: Route.MetaFunction = () => [{ title: 'Website Settings' }];

// Filled in by a later issue; present now so the route table is complete.
export default function SettingsWebsite() {
  return <h1 className="p-6 text-2xl font-bold">Website Settings</h1>;
}
