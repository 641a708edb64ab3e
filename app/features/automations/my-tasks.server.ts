// 'My tasks' for the dashboard (decision 080): the read (my_open_tasks, the
// tasks policies deciding) and the done post (/dashboard, intent task_done).
import { parseWithZod } from '@conform-to/zod/v4';
import { redirectWithSuccess } from 'remix-toast';
import { requireUserWith } from '~/lib/auth.server';
import { HIDDEN_FIELDS, readFormData } from '~/lib/forms.server';
import { refuseReadOnly, refuseSubmission, serverMessage, type ToastArgs } from '~/lib/records.server';
import { uuid } from '~/lib/schemas/fields';
import { z } from '~/lib/schemas/zod';
import type { Supabase } from '~/lib/supabase.server';
import { dataWithError } from '~/lib/toast.server';
import type { MyTask } from './my-tasks';

export const taskDoneSchema = z.object({ intent: z.literal('task_done'), task_id: uuid });

/** The signed-in person's open tasks, newest first (a failure leaves the list empty, logged). */
export async function loadMyTasks(supabase: Supabase): Promise<MyTask[]> {
  const { data, error } = await supabase.rpc('my_open_tasks', { p_limit: 10 });
  if (error) console.error(`my tasks failed to load: ${error.message}`);
  return (data ?? []).map((t) => ({ id: t.id, title: t.title, created_at: t.created_at }));
}

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
