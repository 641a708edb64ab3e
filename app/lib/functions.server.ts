// Calling the Supabase server functions (invite-user, accept-invitation,
// manage-user-role) and reading their error message (docs/product-guide.md: "The error
// message of the response is read").
import { FunctionsHttpError } from '@supabase/supabase-js';
import type { Supabase } from '~/lib/supabase.server';

export type FunctionResult<T> = { ok: true; data: T } | { ok: false; message: string | null };

export async function callFunction<T = unknown>(
  supabase: Supabase,
  name: string,
  body: Record<string, unknown>,
): Promise<FunctionResult<T>> {
  const { data, error } = await supabase.functions.invoke<T>(name, { body });
  if (!error) return { ok: true, data: data as T };
  return { ok: false, message: await errorMessage(error) };
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
