import type { Route } from './+types/invite';

export const meta: Route.MetaFunction = () => [{ title: 'Accept Invitation' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Invite() {
  return <h1 className="p-6 text-2xl font-bold">Accept Invitation</h1>;
}
