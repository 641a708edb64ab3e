// One local backend (fresh database from the migrated snapshot, demo data
// included) for the whole Worker run; the Worker under test is pointed at it.
import type { TestProject } from 'vitest/node';
import { startTestBackend } from '../../supabase/local/testing.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    backendUrl: string;
    anonKey: string;
    serviceRoleKey: string;
  }
}

let stop: (() => Promise<void>) | undefined;

export async function setup(project: TestProject) {
  const backend = await startTestBackend({ seed: true, siteUrl: 'http://ops-hub.test' });
  stop = backend.stop;
  project.provide('backendUrl', backend.url);
  project.provide('anonKey', backend.anonKey);
  project.provide('serviceRoleKey', backend.serviceRoleKey);
}

export async function teardown() {
  await stop?.();
}
