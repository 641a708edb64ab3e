// Settings → Account's logo (decision 045): an admin uploads a PNG or JPEG
// (at most 512 KB and 1024 x 1024 pixels, checked by its bytes here, by type
// and size again by Storage) to branding/<account id>/logo.<png|jpg>, or
// removes it. Storage's policies and the accounts update policy let only an
// admin of the account do either.
import { redirectWithSuccess } from 'remix-toast';
import { inspectLogo, LOGO_LIMITS } from '~/lib/logo-image';
import type { SettingsUser } from '~/lib/settings.server';
import { dataWithError } from '~/lib/toast.server';

type ToastArgs = Parameters<typeof dataWithError>[0];

const PAGE = '/settings/account';
export const LOGO_INTENTS = ['upload-logo', 'remove-logo'] as const;
/** The file and the form's few fields: a little more than the largest logo. */
export const LOGO_FORM_BYTES = LOGO_LIMITS.maxBytes + 16 * 1024;

export const LOGO_TEXTS = {
  saved: 'Logo updated',
  removed: 'Logo removed',
  failed: 'The logo could not be saved. Please try again.',
  choose: 'Choose a PNG or JPEG file',
  tooLarge: 'The logo is too large (at most 512 KB)',
} as const;

export async function saveLogo(args: ToastArgs, user: SettingsUser, form: FormData) {
  const { supabase, profile } = user;
  const accountId = profile?.account_id;
  const refuse = (message: string, status = 400) => dataWithError(args, { logoError: message }, message, { status });
  if (!accountId) return refuse(LOGO_TEXTS.failed, 403);
  const bucket = supabase.storage.from('branding');
  const paths = [`${accountId}/logo.png`, `${accountId}/logo.jpg`];

  if (form.get('intent') === 'remove-logo') {
    const cleared = await supabase.from('accounts').update({ logo_path: null }).eq('id', accountId).select('id');
    if (cleared.error || cleared.data.length === 0) return refuse(LOGO_TEXTS.failed, cleared.error ? 400 : 403);
    await bucket.remove(paths);
    return redirectWithSuccess(PAGE, LOGO_TEXTS.removed);
  }

  const file = form.get('logo');
  if (!(file instanceof File) || file.size === 0) {
    // An empty form is also what a body over the limit reads as.
    const tooLarge = Number(args.request.headers.get('Content-Length') ?? 0) > LOGO_FORM_BYTES;
    return refuse(tooLarge ? LOGO_TEXTS.tooLarge : LOGO_TEXTS.choose, tooLarge ? 413 : 400);
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const image = inspectLogo(bytes);
  if ('error' in image) return refuse(image.error);

  const path = image.kind === 'png' ? paths[0] : paths[1];
  const contentType = image.kind === 'png' ? 'image/png' : 'image/jpeg';
  const uploaded = await bucket.upload(path, bytes, { contentType, upsert: true });
  if (uploaded.error) {
    console.error(`logo: upload failed: ${uploaded.error.message}`);
    return refuse(LOGO_TEXTS.failed);
  }
  const stored = await supabase.from('accounts').update({ logo_path: path }).eq('id', accountId).select('id');
  if (stored.error || stored.data.length === 0) {
    if (stored.error) console.error(`logo: saving the path failed: ${stored.error.message}`);
    return refuse(LOGO_TEXTS.failed);
  }
  // The other kind's file, if an earlier logo was one.
  await bucket.remove(paths.filter((other) => other !== path));
  return redirectWithSuccess(PAGE, LOGO_TEXTS.saved);
}
