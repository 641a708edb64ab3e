import type { Route } from './+types/settings.account';

export const meta: Route.MetaFunction = () => [{ title: 'Account Settings' }];

// Filled in by a later issue; present now so the route table is complete.
export default function SettingsAccount() {
  return <h1 className="p-6 text-2xl font-bold">Account Settings</h1>;
}
