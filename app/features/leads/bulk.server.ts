// The Leads list's bulk action (issue 32): the ticked leads marked lost at
// once, posted by the list's form (no JavaScript needed) and answered with a
// toast on the list page it came from. Row-level security limits the update
// to the caller's account and to a role that may write.
import { parseWithZod } from '@conform-to/zod/v4';
import { redirectWithSuccess } from 'remix-toast';
import { PAGE_SIZE } from '~/lib/list-query';
import { readFormData } from '~/lib/forms.server';
import { requireUser } from '~/lib/auth.server';
import { refuseReadOnly, refuseSubmission, serverMessage } from '~/lib/records.server';
import { z } from '~/lib/schemas/zod';
import { dataWithError } from '~/lib/toast.server';
import type { Supabase } from '~/lib/supabase.server';
import { BULK_INTENT } from './bulk';
import { LEAD_BULK_TEXTS as TEXTS } from './texts';

type ActionArgs = Parameters<typeof refuseReadOnly>[0];

const bulkSchema = z.object({
  intent: z.literal(BULK_INTENT),
  // Checkboxes: none ticked sends nothing; a page holds at most PAGE_SIZE rows.
  ids: z.array(z.uuid(TEXTS.invalid)).max(PAGE_SIZE, TEXTS.invalid).optional(),
  returnTo: z
    .string()
    .max(500)
    .regex(/^\/leads(\?[^\s]*)?$/)
    .optional(),
});

/** True when the posted form is the bulk action's (the create dialog posts no intent). */
export async function isBulkPost(request: Request): Promise<boolean> {
  const form = await readFormData(request.clone() as Request);
  return form.get('intent') === BULK_INTENT;
}

export async function markLeadsLost(args: ActionArgs) {
  const { supabase, profile } = await requireUser(args.request, args.context);
  const refused = refuseReadOnly(args, profile);
  if (refused) return refused;
  const submission = parseWithZod(await readFormData(args.request), { schema: bulkSchema });
  if (submission.status !== 'success') {
    return refuseSubmission(args, submission, { toast: (errors) => errors.ids?.[0] ?? errors['ids[0]']?.[0] });
  }
  const { ids, returnTo } = submission.value;
  if (!ids?.length) return dataWithError(args, { result: submission.reply() }, TEXTS.noneSelected, { status: 400 });
  const { data, error } = await setLost(supabase, ids);
  if (error) return dataWithError(args, { result: submission.reply() }, serverMessage(error, TEXTS.failed), { status: 400 });
  return redirectWithSuccess(returnTo ?? '/leads', TEXTS.done(data?.length ?? 0));
}

/** Each lead's history records its own change (the leads' audit trigger). */
function setLost(supabase: Supabase, ids: string[]) {
  return supabase.from('leads').update({ status: 'lost' }).in('id', ids).neq('status', 'lost').select('id');
}
