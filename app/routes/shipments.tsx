import type { Route } from './+types/shipments';

export const meta: Route.MetaFunction = () => [{ title: 'Shipments' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Shipments() {
  return <h1 className="p-6 text-2xl font-bold">Shipments</h1>;
}
