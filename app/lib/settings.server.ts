// What every settings screen's loader and action starts with: the signed-in
// user, their users row and whether they are an admin. The role only decides
// what the UI shows; the database decides what may be done.
import type { RouterContextProvider } from 'react-router';
import { requireUser, type SignedIn, type UserProfile } from '~/lib/auth.server';
import { SETTINGS_PAGE_SIZE } from '~/lib/settings-options';

export interface SettingsUser extends SignedIn {
  profile: UserProfile | null;
  isAdmin: boolean;
}

export async function requireSettingsUser(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<SettingsUser> {
  const signedIn = await requireUser(request, context);
  return { ...signedIn, isAdmin: signedIn.profile?.role === 'admin' };
}

/** ?page=N (1-based), clamped to something sensible. */
export function pageFrom(url: URL): number {
  const page = Number.parseInt(url.searchParams.get('page') ?? '1', 10);
  return Number.isFinite(page) && page >= 1 && page <= 10_000 ? page : 1;
}

/** The inclusive row range of a page, as supabase-js's .range() wants it. */
export function pageRange(page: number, size = SETTINGS_PAGE_SIZE): [number, number] {
  const from = (page - 1) * size;
  return [from, from + size - 1];
}

/** A database error as the server message of spec §8 ("the server message, else ..."). */
export function serverMessage(error: { message?: string } | null | undefined, fallback: string): string {
  return error?.message?.trim() || fallback;
}
