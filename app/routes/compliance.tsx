import type { Route } from './+types/compliance';

export const meta: Route.MetaFunction = () => [{ title: 'Compliance' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Compliance() {
  return <h1 className="p-6 text-2xl font-bold">Compliance</h1>;
}
