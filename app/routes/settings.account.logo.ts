// Settings → Account's logo (decision 045): an admin uploads a PNG or JPEG
// (at most 512 KB and 1024 x 1024 pixels, checked by its bytes here, by type
// and size again by Storage) to branding/<account id>/logo.<png|jpg>, or
// removes it. Storage's policies and the accounts update policy let only an
// admin of the account do either; the answer is always the settings page
// with a toast, with JavaScript or without.
import { redirectWithError, redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/settings.account.logo';
import { inspectLogo, LOGO_LIMITS } from '~/lib/logo-image';
import { readFormData } from '~/lib/forms.server';
import { SETTINGS_RESTRICTED } from '~/lib/settings-access';
import { requireSettingsUser } from '~/lib/settings.server';

const PAGE = '/settings/account';
export const LOGO_TEXTS = {
  saved: 'Logo updated',
  removed: 'Logo removed',
  failed: 'The logo could not be saved. Please try again.',
} as const;

export async function action({ request, context }: Route.ActionArgs) {
  const { supabase, profile, isAdmin } = await requireSettingsUser(request, context);
  if (!isAdmin || !profile?.account_id) return redirectWithError(PAGE, SETTINGS_RESTRICTED.account);
  const accountId = profile.account_id;
  // The file and the form's few fields: a little more than the largest logo.
  const form = await readFormData(request, LOGO_LIMITS.maxBytes + 16 * 1024);
  const bucket = supabase.storage.from('branding');
  const paths = [`${accountId}/logo.png`, `${accountId}/logo.jpg`];

  if (form.get('intent') === 'remove-logo') {
    const cleared = await supabase.from('accounts').update({ logo_path: null }).eq('id', accountId).select('id');
    if (cleared.error || cleared.data.length === 0) return redirectWithError(PAGE, LOGO_TEXTS.failed);
    await bucket.remove(paths);
    return redirectWithSuccess(PAGE, LOGO_TEXTS.removed);
  }

  const file = form.get('logo');
  if (!(file instanceof File) || file.size === 0) {
    // An empty form here is also what a body over the limit reads as.
    const tooLarge = Number(request.headers.get('Content-Length') ?? 0) > LOGO_LIMITS.maxBytes;
    return redirectWithError(PAGE, tooLarge ? 'The logo is too large (at most 512 KB)' : 'Choose a PNG or JPEG file');
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const image = inspectLogo(bytes);
  if ('error' in image) return redirectWithError(PAGE, image.error);

  const path = image.kind === 'png' ? paths[0] : paths[1];
  const contentType = image.kind === 'png' ? 'image/png' : 'image/jpeg';
  const uploaded = await bucket.upload(path, bytes, { contentType, upsert: true });
  if (uploaded.error) {
    console.error(`logo: upload failed: ${uploaded.error.message}`);
    return redirectWithError(PAGE, LOGO_TEXTS.failed);
  }
  const stored = await supabase.from('accounts').update({ logo_path: path }).eq('id', accountId).select('id');
  if (stored.error || stored.data.length === 0) {
    if (stored.error) console.error(`logo: saving the path failed: ${stored.error.message}`);
    return redirectWithError(PAGE, LOGO_TEXTS.failed);
  }
  // The other kind's file, if an earlier logo was one.
  await bucket.remove(paths.filter((other) => other !== path));
  return redirectWithSuccess(PAGE, LOGO_TEXTS.saved);
}
