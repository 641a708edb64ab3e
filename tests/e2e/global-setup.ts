// One app server for the whole e2e run.
import type { TestProject } from 'vitest/node';
import { startAppServer, type AppServer } from './support/app-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
  }
}

let app: AppServer | undefined;

export async function setup(project: TestProject) {
  app = await startAppServer({ SUPABASE_URL: 'http://127.0.0.1:9' });
  project.provide('appUrl', app.url);
}

export async function teardown() {
  await app?.stop();
}
