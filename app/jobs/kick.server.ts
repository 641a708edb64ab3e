// After a write that queued work, the action kicks the runner so the mail
// leaves now rather than at the next cron tick. It runs after the response
// (ctx.waitUntil); a kick and the cron never run a job twice (claim_jobs).
import { env } from 'cloudflare:workers';
import type { RouterContextProvider } from 'react-router';
import { executionContext } from '~/lib/request-context';
import { runJobs } from './runner.server';

export function kickJobRunner(context: Readonly<RouterContextProvider>): void {
  const ctx = context.get(executionContext);
  if (!ctx) return;
  ctx.waitUntil(runJobs(env, { budgetMs: 20_000 }).catch((error: unknown) => console.error('jobs runner kick failed:', error)));
}
