import type { Route } from './+types/settings.users';

export const meta: Route.MetaFunction = () => [{ title: 'Users' }];

// Filled in by a later issue; present now so the route table is complete.
export default function SettingsUsers() {
  return <h1 className="p-6 text-2xl font-bold">Users</h1>;
}
