import type { Route } from './+types/dashboard';

export const meta: Route.MetaFunction = () => [{ title: 'Dashboard' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Dashboard() {
  return <h1 className="p-6 text-2xl font-bold">Dashboard</h1>;
}
