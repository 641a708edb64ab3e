// `npm run bench:load`: a mixed workload against the built Worker under
// `wrangler dev` and a fresh local backend: BENCH_USERS virtual users (32),
// each the admin of their own new account, for BENCH_SECONDS (60): page views
// of every screen, quote/lead/client creations and account settings saves,
// each user sending its next request when the last one's answer is read.
// Reports throughput and p50/p95/p99 per route, then checks the database:
// every creation that got a success answer exists exactly once (nothing lost,
// nothing doubled) and nothing else was written; and no answer was a 5xx.
// Build first (`npm run build`). BENCH_POSTGRES_URL runs the backend on PostgreSQL.
import { runHeader, startStack } from '../support/stack.ts';
import { Session, type Answer } from '../../tests/support/session.ts';

const USERS = Number(process.env.BENCH_USERS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const RUN = Date.now().toString(36);

const SCREENS = [
  '/dashboard', '/leads', '/quotes', '/clients', '/messages', '/invoices', '/shipments', '/documents', '/rfp',
  '/compliance', '/automations', '/analytics', '/settings/website', '/settings/modules', '/settings/templates',
  '/settings/integrations', '/settings/users', '/settings/account', '/settings/audit-logs',
];

type Kind = 'quote' | 'lead' | 'client';
const created: Record<Kind, string[]> = { quote: [], lead: [], client: [] };
const stats = new Map<string, { ms: number[]; status: Map<number, number> }>();
const failures: string[] = [];

function record(label: string, answer: Answer) {
  const entry = stats.get(label) ?? { ms: [], status: new Map<number, number>() };
  entry.ms.push(answer.ms);
  entry.status.set(answer.status, (entry.status.get(answer.status) ?? 0) + 1);
  stats.set(label, entry);
  if (answer.status >= 500 && failures.length < 10) failures.push(`${label} → ${answer.status}: ${answer.body.slice(0, 200)}`);
}

let serial = 0;
async function create(session: Session, kind: Kind): Promise<void> {
  const n = ++serial;
  const email = `load-${RUN}-${kind}-${n}@example.test`;
  const forms: Record<Kind, [string, Record<string, string | string[]>]> = {
    quote: ['/quotes?new', {
      contact_name: `Load Contact ${n}`, contact_email: email, company: 'Load Co', description: `Load quote ${RUN} ${n}`,
      unit_price: '125.50', quantity: '2', currency: 'USD', expires_in_days: '30', notes: '',
    }],
    lead: ['/leads?new', { name: `Load Lead ${n}`, email, company: 'Load Co', source: 'website', interest: ['cpq'] }],
    client: ['/clients?new', { name: `Load Client ${n}`, email, company: 'Load Co', phone: '', role: '', notes: '' }],
  };
  const [path, form] = forms[kind];
  const answer = await session.send(path, form);
  record(`POST ${path.split('?')[0]} (create ${kind})`, answer);
  if (answer.status === 302 && answer.location === path.split('?')[0]) created[kind].push(email);
}

async function saveSettings(session: Session, user: number): Promise<void> {
  const answer = await session.send('/settings/account', {
    intent: 'save', name: `Load Account ${user} ${++serial}`, billing_email: '', default_currency: 'EUR', timezone: 'UTC', country: 'PT',
  });
  record('POST /settings/account (save)', answer);
}

async function virtualUser(session: Session, user: number, until: number): Promise<void> {
  while (performance.now() < until) {
    const roll = Math.random();
    if (roll < 0.7) {
      const path = SCREENS[Math.floor(Math.random() * SCREENS.length)];
      record(`GET ${path}`, await session.send(path));
    } else if (roll < 0.9) {
      await create(session, (['quote', 'lead', 'client'] as const)[Math.floor(Math.random() * 3)]);
    } else {
      await saveSettings(session, user);
    }
  }
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

const stack = await startStack({ postgresUrl: process.env.BENCH_POSTGRES_URL });
try {
  // Set-up, not timed: sign-ups four at a time (each hashes a password with bcrypt).
  const sessions = Array.from({ length: USERS }, () => new Session(stack.appUrl, stack.backendUrl));
  for (let first = 0; first < USERS; first += 4) {
    await Promise.all(
      sessions.slice(first, first + 4).map((session, i) => session.signUp(`load-${RUN}-user-${first + i}@example.test`, 'load-password-1')),
    );
  }
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(sessions.map((session, user) => virtualUser(session, user, until)));
  const elapsed = (performance.now() - started) / 1000;

  // What the database holds: each successful creation exactly once, and no others.
  const like = encodeURIComponent(`load-${RUN}-*`);
  const leads = await stack.rest<{ email: string }[]>(`leads?select=email&email=like.${like}`);
  const contacts = await stack.rest<{ email: string }[]>(`contacts?select=email&email=like.${like}`);
  const items = await stack.rest<{ description: string }[]>(`quote_items?select=description&description=like.${encodeURIComponent(`Load quote ${RUN} *`)}`);
  const tally = (emails: string[], kind: Kind) => emails.filter((email) => email.includes(`-${kind}-`)).sort();
  const checks = [
    ['quotes (their contacts)', created.quote, tally(contacts.map((c) => c.email), 'quote')],
    ['quote line items', created.quote, items.map((i) => `load-${RUN}-quote-${i.description.split(' ').at(-1)}@example.test`)],
    ['leads', created.lead, tally(leads.map((l) => l.email), 'lead')],
    ['clients', created.client, tally(contacts.map((c) => c.email), 'client')],
  ] as const;

  const total = [...stats.values()].reduce((sum, entry) => sum + entry.ms.length, 0);
  const fiveHundreds = [...stats.values()].reduce((sum, entry) => sum + [...entry.status].filter(([s]) => s >= 500).reduce((a, [, c]) => a + c, 0), 0);
  console.log(`\n${runHeader()}; ${USERS} users, ${SECONDS} s, ${total} requests, ${(total / elapsed).toFixed(1)} requests/s\n`);
  console.log('| route | requests | requests/s | p50 ms | p95 ms | p99 ms | statuses |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [label, entry] of [...stats].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...entry.ms].sort((a, b) => a - b);
    const statuses = [...entry.status].map(([status, count]) => `${status}×${count}`).join(' ');
    console.log(`| ${label} | ${sorted.length} | ${(sorted.length / elapsed).toFixed(1)} | ${percentile(sorted, 0.5).toFixed(0)} | ${percentile(sorted, 0.95).toFixed(0)} | ${percentile(sorted, 0.99).toFixed(0)} | ${statuses} |`);
  }
  console.log('\n| check | successes answered | rows in the database | exactly once |');
  console.log('|---|---|---|---|');
  let consistent = true;
  for (const [label, answered, stored] of checks) {
    const same = JSON.stringify([...answered].sort()) === JSON.stringify([...stored].sort());
    consistent &&= same;
    console.log(`| ${label} | ${answered.length} | ${stored.length} | ${same ? 'yes' : '**NO**'} |`);
  }
  console.log(`\n5xx answers: ${fiveHundreds}${failures.length ? `\n${failures.join('\n')}` : ''}`);
  process.exitCode = consistent && fiveHundreds === 0 ? 0 : 1;
} finally {
  await stack.stop();
}
process.exit(process.exitCode ?? 0);
