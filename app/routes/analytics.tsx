import type { Route } from './+types/analytics';

export const meta: Route.MetaFunction = () => [{ title: 'Analytics' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Analytics() {
  return <h1 className="p-6 text-2xl font-bold">Analytics</h1>;
}
