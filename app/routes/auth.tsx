import type { Route } from './+types/auth';

export const meta: Route.MetaFunction = () => [{ title: 'Sign In' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Auth() {
  return <h1 className="p-6 text-2xl font-bold">Sign In</h1>;
}
