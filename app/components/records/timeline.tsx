// A record's lifecycle as one timeline (issue 32): its moments (created,
// sent, viewed, signed, paid…, from the record's own columns) merged with its
// history (the audit rows, which say who acted: a person, the client, or
// System — decision 047). A moment the history already tells is told once, by
// the history, which knows who; a moment without an audit row (older rows,
// a column set by the database) still shows, with the actor the page knows.
import { SectionHeading } from '~/components/page-header';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { formatDateTime } from '~/lib/dates';
import type { HistoryEntry } from '~/lib/record-history';
import { timelineItems, type Moment } from './timeline-items';

export type { Moment } from './timeline-items';

/** The record's timeline in a card headed History (the name the product has always used). */
export function Timeline({
  moments = [],
  entries,
  failed,
}: {
  moments?: readonly Moment[];
  entries: readonly HistoryEntry[];
  failed: boolean;
}) {
  const items = timelineItems(moments, failed ? [] : entries);
  return (
    <Card>
      <CardHeader className="pb-3">
        <SectionHeading id="history-heading">History</SectionHeading>
      </CardHeader>
      <CardContent className="grid gap-3">
        {failed ? <p className="text-sm text-muted-foreground">The history could not be loaded. Please try again in a moment.</p> : null}
        {items.length === 0 && !failed ? <p className="text-sm text-muted-foreground">No history yet.</p> : null}
        {items.length > 0 ? (
          <ol aria-labelledby="history-heading" className="grid" data-testid="timeline">
            {items.map((item, index) => (
              <li key={item.key} className="relative grid gap-0.5 pb-4 pl-6 text-sm last:pb-0">
                {/* The line between the dots; the last item ends it. */}
                {index < items.length - 1 ? <span aria-hidden="true" className="absolute top-3 bottom-0 left-[5px] w-px bg-border" /> : null}
                <span aria-hidden="true" className={`absolute top-1.5 left-0 size-[11px] rounded-full border-2 ${index === 0 ? 'border-primary bg-primary' : 'border-border bg-background'}`} />
                <p className="min-w-0 [overflow-wrap:anywhere]">
                  <span className="font-medium">{item.title}</span>
                  {item.actor ? (
                    <>
                      {' by '}
                      {item.actor}
                    </>
                  ) : null}
                </p>
                <time dateTime={item.at} className="text-xs text-muted-foreground">
                  {formatDateTime(item.at)}
                </time>
                {item.changes.length > 0 ? (
                  <ul className="grid gap-0.5 text-muted-foreground [overflow-wrap:anywhere]">
                    {item.changes.map((change) => (
                      <li key={change.field}>
                        {change.field}: {change.before} → {change.after}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ol>
        ) : null}
      </CardContent>
    </Card>
  );
}
