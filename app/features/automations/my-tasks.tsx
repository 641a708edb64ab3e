// 'My tasks' on the dashboard (decision 080): the signed-in person's open
// tasks (assign_task's, or given by hand), each marked done by its own
// checkbox button, a plain post to /dashboard, so it works without JavaScript.
import { Form } from 'react-router';
import { CheckCircle2, Circle } from '~/components/icons';
import { SectionHeading } from '~/components/page-header';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { formatShortDate } from '~/lib/dates';

export type MyTask = { id: string; title: string; created_at: string };

export function MyTasks({ tasks }: { tasks: MyTask[] }) {
  return (
    <Card>
      <CardHeader>
        <SectionHeading className="flex items-center gap-2">
          <CheckCircle2 className="size-4" aria-hidden="true" />
          My tasks
        </SectionHeading>
      </CardHeader>
      <CardContent>
        {tasks.length === 0 ? (
          <p className="text-sm text-muted-foreground">No open tasks.</p>
        ) : (
          <ul className="grid gap-2 text-sm">
            {tasks.map((task) => (
              <li key={task.id}>
                <Form method="post" action="/dashboard" className="flex items-start gap-2">
                  <input type="hidden" name="task_id" value={task.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="task_done"
                    role="checkbox"
                    aria-checked="false"
                    aria-label={`Mark "${task.title}" done`}
                    className="mt-0.5 rounded-sm text-muted-foreground hover:text-primary focus-visible:outline-2"
                  >
                    <Circle className="size-4" aria-hidden="true" />
                  </button>
                  <span className="grid">
                    <span>{task.title}</span>
                    <span className="text-xs text-muted-foreground">{formatShortDate(task.created_at)}</span>
                  </span>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
