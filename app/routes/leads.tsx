import type { Route } from './+types/leads';

export const meta: Route.MetaFunction = () => [{ title: 'Leads' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Leads() {
  return <h1 className="p-6 text-2xl font-bold">Leads</h1>;
}
