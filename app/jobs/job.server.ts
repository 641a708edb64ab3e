// What a job handler is, apart from the registry that lists them: features
// import this leaf module, and the registry imports the features, so neither
// side imports the other back.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';

export interface JobContext {
  /** The service role: the runner acts for the platform, so a handler checks what it reads. */
  admin: SupabaseClient<Database>;
  env: Env;
  job: { id: string; kind: string; account_id: string | null; subject_id: string | null; attempts: number };
}

export type JobHandler = (payload: Record<string, unknown>, ctx: JobContext) => Promise<void>;

/** An error retrying will not fix (the record is gone, an address is missing): the job fails at once. */
export class PermanentJobError extends Error {}

/** A payload's text value, or a permanent failure: a job queued without it can never succeed. */
export function payloadText(payload: Record<string, unknown>, key: string): string {
  const value = payload[key];
  if (typeof value !== 'string' || value === '') throw new PermanentJobError(`The job has no ${key}`);
  return value;
}
