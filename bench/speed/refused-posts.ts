// `npm run bench:speed:posts`: whether the Worker's isolate slows down as it
// answers many refused form posts (the hostile-input test files do, within
// one file; bench/README.md "Hostile input"). Sends invalid forms of four
// screens, one after another, as the demo admin, against the built Worker
// under `wrangler dev` (build first), and prints the time per post for each
// batch: flat from the first batch to the last means nothing in the app
// grows with the requests it has answered.
import { startStack } from '../support/stack.ts';
import { Session } from '../../tests/support/session.ts';
import { DEMO_ADMIN } from '../../tests/support/accounts.ts';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 12);
const BATCH = Number(process.env.BENCH_BATCH ?? 250);

const FORMS: [path: string, fields: Record<string, string>][] = [
  ['/leads', { intent: 'create', name: '', email: 'not-an-email', company: 'x'.repeat(5000) }],
  ['/settings/account', { name: '', billing_email: 'x', default_currency: 'ZZZ', timezone: 'Nowhere' }],
  ['/clients', { intent: 'create', name: '\u0000bad', email: 'bad' }],
  ['/quotes', { intent: 'create', contact_id: 'not-a-uuid' }],
];

const stack = await startStack();
try {
  const admin = new Session(stack.appUrl, stack.backendUrl);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const headers = { cookie: admin.cookieHeader, origin: stack.appUrl };
  for (let batch = 0; batch < BATCHES; batch++) {
    const started = performance.now();
    const statuses = new Map<number, number>();
    for (let i = 0; i < BATCH; i++) {
      const [path, fields] = FORMS[i % FORMS.length];
      const response = await fetch(stack.appUrl + path, { method: 'POST', body: new URLSearchParams(fields), headers, redirect: 'manual' });
      await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
    const answers = [...statuses].map(([status, count]) => `${count}× ${status}`).join(', ');
    console.log(`batch ${batch + 1}: ${((performance.now() - started) / BATCH).toFixed(2)} ms per post (${answers})`);
  }
} finally {
  await stack.stop();
}
process.exit(0);
