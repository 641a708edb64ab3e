import type { Route } from './+types/automations';

export const meta: Route.MetaFunction = () => [{ title: 'Automations' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Automations() {
  return <h1 className="p-6 text-2xl font-bold">Automations</h1>;
}
