import type { Route } from './+types/quotes';

export const meta: Route.MetaFunction = () => [{ title: 'Quotes' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Quotes() {
  return <h1 className="p-6 text-2xl font-bold">Quotes</h1>;
}
