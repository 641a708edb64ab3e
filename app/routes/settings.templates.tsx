import type { Route } from './+types/settings.templates';

export const meta: Route.MetaFunction = () => [{ title: 'Templates' }];

// Filled in by a later issue; present now so the route table is complete.
export default function SettingsTemplates() {
  return <h1 className="p-6 text-2xl font-bold">Templates</h1>;
}
