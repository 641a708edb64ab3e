import type { Route } from './+types/messages';

export const meta: Route.MetaFunction = () => [{ title: 'Messages' }];

// Filled in by a later issue; present now so the route table is complete.
export default function Messages() {
  return <h1 className="p-6 text-2xl font-bold">Messages</h1>;
}
