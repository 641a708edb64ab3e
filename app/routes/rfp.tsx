import type { Route } from './+types/rfp';

export const meta: Route.MetaFunction = () => [{ title: 'RFP Radar' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Rfp() {
  return <h1 className="p-6 text-2xl font-bold">RFP Radar</h1>;
}
