// 'My tasks' for the dashboard (decision 080): the done post (/dashboard,
// intent task_done). The list is dashboard_overview's key my_tasks (read by
// my_open_tasks, the tasks policies deciding), in the dashboard's one call.
import { parseWithZod } from '@conform-to/zod/v4';
import { redirectWithSuccess } from 'remix-toast';
import { requireUserWith } from '~/lib/auth.server';
import { HIDDEN_FIELDS, readFormData } from '~/lib/forms.server';
import { refuseReadOnly, refuseSubmission, serverMessage, type ToastArgs } from '~/lib/records.server';
import { uuid } from '~/lib/schemas/fields';
import { z } from '~/lib/schemas/zod';
import { dataWithError } from '~/lib/toast.server';

export const taskDoneSchema = z.object({ intent: z.literal('task_done'), task_id: uuid });

/** A task's checkbox: done, back to the dashboard. */
export async function markTaskDone(args: ToastArgs) {
  const submission = parseWithZod(await readFormData(args.request), { schema: taskDoneSchema });
  // The task's id is a hidden field: a bad one is an altered form, said in a toast.
  if (submission.status !== 'success') return refuseSubmission(args, submission, { hiddenFields: [...HIDDEN_FIELDS, 'task_id'] });
  const [{ profile }, { data, error }] = await requireUserWith(args.request, args.context, (supabase) =>
    supabase.from('tasks').update({ done: true }).eq('id', submission.value.task_id).select('id').maybeSingle(),
  );
  const refused = refuseReadOnly(args, profile);
  if (refused) return refused;
  if (error || !data) {
    const message = error ? serverMessage(error, 'Failed to mark the task done') : 'Task not found';
    return dataWithError(args, { result: submission.reply({ formErrors: [message] }) }, message, { status: error ? 500 : 404 });
  }
  return redirectWithSuccess('/dashboard', 'Task done');
}
