// A list with nothing yet says what it is for and offers the first action
// (issue 32); a search or filter that matched nothing says so instead.
import type * as React from 'react';

export function RecordEmpty({
  title,
  purpose,
  action,
}: {
  /** "No leads yet…", or the list's no-match text. */
  title: string;
  /** What the list is for: the screen's description. Left out for a search that matched nothing. */
  purpose?: string;
  /** The first action (a New … link), for those who may take it. */
  action?: React.ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-2 py-10 text-center">
      <p className="text-sm font-medium">{title}</p>
      {purpose ? <p className="max-w-md text-sm text-muted-foreground">{purpose}</p> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
