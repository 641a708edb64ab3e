// Saving the Monthly Goals (Settings → Account, intent "goals"): checked
// here and by the database's trigger; row-level security and the column
// grant let only an admin update their own account's goals.
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Supabase } from '~/lib/supabase.server';
import { ALTERED_FORM_MESSAGE, isAlteredForm } from '~/lib/forms.server';
import { dataWithError } from '~/lib/toast.server';
import { goalsSchema, targetsOf } from './goals';

export const GOALS_SAVED = 'Goals saved';
export const GOALS_SAVE_FAILED = 'Failed to save goals';

export async function saveGoals(args: ActionFunctionArgs, supabase: Supabase, accountId: string | null | undefined, formData: FormData) {
  const submission = parseWithZod(formData, { schema: goalsSchema });
  // Its own key, so the account form on the same page keeps its state.
  if (submission.status !== 'success') {
    // A form altered or made by hand (two intents, a field missing) has no field to show its error: say so.
    if (isAlteredForm(submission)) return dataWithError(args, { goalsResult: submission.reply() }, ALTERED_FORM_MESSAGE, { status: 400 });
    return data({ goalsResult: submission.reply() }, { status: 400 });
  }
  const { data: updated, error } = await supabase
    .from('accounts')
    .update({ analytics_goals: JSON.parse(JSON.stringify(targetsOf(submission.value))) })
    .eq('id', accountId ?? '00000000-0000-0000-0000-000000000000')
    .select('id');
  if (error || !updated || updated.length === 0) {
    if (error) console.error(`goals: update failed: ${error.message}`);
    return dataWithError(args, { goalsResult: submission.reply() }, GOALS_SAVE_FAILED, { status: error ? 400 : 403 });
  }
  return redirectWithSuccess('/settings/account#goals', GOALS_SAVED);
}
