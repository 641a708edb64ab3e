import type { Route } from './+types/clients';

export const meta: Route.MetaFunction = () => [{ title: 'Clients' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Clients() {
  return <h1 className="p-6 text-2xl font-bold">Clients</h1>;
}
