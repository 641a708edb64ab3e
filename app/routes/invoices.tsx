import type { Route } from './+types/invoices';

export const meta: Route.MetaFunction = () => [{ title: 'Invoices' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Invoices() {
  return <h1 className="p-6 text-2xl font-bold">Invoices</h1>;
}
