import { SectionHeading } from '~/components/page-header';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { formatDateTime } from '~/lib/dates';
import { changedFields, historyActor, historyTitle, type HistoryEntry } from '~/lib/record-history';

/** A record's history, newest first: what happened, who did it, when, and what an edit changed. */
export function RecordHistory({ entries, failed }: { entries: HistoryEntry[]; failed: boolean }) {
  return (
    <Card>
      <CardHeader>
        <SectionHeading id="history-heading">History</SectionHeading>
      </CardHeader>
      <CardContent>
        {failed ? (
          <p className="text-sm text-muted-foreground">The history could not be loaded. Please try again in a moment.</p>
        ) : entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">No history yet.</p>
        ) : (
          <ol aria-labelledby="history-heading" className="grid gap-3">
            {entries.map((entry) => {
              const changes = changedFields(entry);
              return (
                <li key={entry.id} className="grid gap-1 border-l-2 border-border pl-3 text-sm">
                  <p>
                    <span className="font-medium">{historyTitle(entry)}</span>
                    {' by '}
                    {historyActor(entry)}
                    {' · '}
                    <time dateTime={entry.at} className="text-muted-foreground">
                      {formatDateTime(entry.at)}
                    </time>
                  </p>
                  {changes.length > 0 ? (
                    <ul className="grid gap-0.5 text-muted-foreground">
                      {changes.map((change) => (
                        <li key={change.field}>
                          {change.field}: {change.before} → {change.after}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              );
            })}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
