// Calling the Supabase server functions (invite-user, accept-invitation,
// manage-user-role) and reading their error message (docs/product-guide.md: "The error
// message of the response is read").
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';

/**
 * `answered` tells a function that refused (it answered with an error, maybe
 * without a message) from one that never answered (the network, the relay):
 * the screens say 'Failed to send invitation' for the one and 'Failed to
 * save user' for the other, as docs/product-guide.md lists them.
 */
export type FunctionResult<T> = { ok: true; data: T } | { ok: false; message: string | null; answered: boolean };

export async function callFunction<T = unknown>(
  // Only the functions client is used: any Supabase client will do (the request's, in the app).
  supabase: Pick<SupabaseClient, 'functions'>,
  name: string,
  body: Record<string, unknown>,
): Promise<FunctionResult<T>> {
  const { data, error } = await supabase.functions.invoke<T>(name, { body });
  if (!error) return { ok: true, data: data as T };
  return { ok: false, message: await errorMessage(error), answered: error instanceof FunctionsHttpError };
}

async function errorMessage(error: unknown): Promise<string | null> {
  if (error instanceof FunctionsHttpError) {
    try {
      const payload = (await (error.context as Response).json()) as { error?: unknown; message?: unknown };
      const message = payload.error ?? payload.message;
      return typeof message === 'string' && message ? message : null;
    } catch {
      return null;
    }
  }
  return null;
}
