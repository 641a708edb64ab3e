// The account's failed jobs, for its admins (decision 021): work the runner
// gave up on after its attempts (mail that did not leave), with the last
// error, so someone can fix the cause. Read-only; the database shows jobs to
// admins only.
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card';
import { formatDateTime } from '~/lib/dates';

export interface FailedJob {
  id: string;
  kind: string;
  attempts: number;
  last_error: string | null;
  updated_at: string;
}

const KIND_LABELS: Record<string, string> = {
  'mail.send': 'Mail',
  'mail.test': 'Test mail',
};

export const FAILED_JOBS_TEXTS = {
  title: 'Failed jobs',
  description: 'Work that was given up after its attempts, newest first.',
} as const;

export function FailedJobs({ jobs }: { jobs: FailedJob[] }) {
  if (jobs.length === 0) return null;
  return (
    <Card aria-labelledby="failed-jobs-title">
      <CardHeader>
        <CardTitle id="failed-jobs-title">{FAILED_JOBS_TEXTS.title}</CardTitle>
        <CardDescription>{FAILED_JOBS_TEXTS.description}</CardDescription>
      </CardHeader>
      <CardContent className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead className="text-left text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">Job</th>
              <th scope="col" className="px-3 py-2 font-medium">Attempts</th>
              <th scope="col" className="px-3 py-2 font-medium">Last error</th>
              <th scope="col" className="px-3 py-2 font-medium">When</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr key={job.id} className="border-t border-border align-top">
                <td className="px-3 py-2">{KIND_LABELS[job.kind] ?? job.kind}</td>
                <td className="px-3 py-2">{job.attempts}</td>
                <td className="px-3 py-2 break-words">{job.last_error ?? 'No error recorded'}</td>
                <td className="px-3 py-2 whitespace-nowrap">
                  <time dateTime={job.updated_at}>{formatDateTime(job.updated_at)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
