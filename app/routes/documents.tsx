import type { Route } from './+types/documents';

export const meta: Route.MetaFunction = () => [{ title: 'Documents' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Documents() {
  return <h1 className="p-6 text-2xl font-bold">Documents</h1>;
}
