// The items of a record's timeline (timeline.tsx): its moments merged with
// its history, newest first, each moment told once.
import { changedFields, historyActor, historyTitle, type FieldChange, type HistoryEntry } from '~/lib/record-history';

export interface Moment {
  /** What happened, as the timeline says it: 'Sent', 'Signed'. */
  label: string;
  /** When; no time, no moment (a draft was never sent). */
  at: string | null | undefined;
  /** Who, when the page knows it: 'Ada Client, client', 'System'. */
  actor?: string | null;
  /** The audit actions that tell the same moment: when one is in the history, the moment is not repeated. */
  covers?: readonly string[];
}

export interface TimelineItem {
  key: string;
  title: string;
  actor: string | null;
  at: string;
  changes: FieldChange[];
}

/**
 * The moments and the history as one list, newest first. Two items at the
 * same instant keep the lifecycle's order reversed (signed above viewed), the
 * history's own order otherwise.
 */
export function timelineItems(moments: readonly Moment[], history: readonly HistoryEntry[]): TimelineItem[] {
  const told = new Set(history.map((entry) => entry.action));
  // A status change the lifecycle tells by name (quote_sent, quote_viewed…) is told once, by that name.
  const toldByName = (entry: HistoryEntry) => {
    const status = entry.newValues.status;
    const changes = changedFields(entry);
    return (
      typeof status === 'string' &&
      changes.length > 0 &&
      changes.every((change) => change.field === 'Status') &&
      (told.has(`${entry.action.split('_')[0]}_${status}`) || moments.some((moment) => moment.at && moment.label.toLowerCase() === status))
    );
  };
  const shown = history.filter((entry) => !toldByName(entry));
  const fromMoments = moments.flatMap((moment, index) =>
    moment.at && !(moment.covers ?? []).some((action) => told.has(action))
      ? [{ item: { key: `moment-${moment.label}`, title: moment.label, actor: moment.actor ?? null, at: moment.at, changes: [] }, rank: index }]
      : [],
  );
  const fromHistory = shown.map((entry, index) => ({
    item: { key: entry.id, title: historyTitle(entry), actor: historyActor(entry), at: entry.at, changes: changedFields(entry) },
    // The history comes newest first: a lower index is later.
    rank: moments.length + (shown.length - index),
  }));
  return [...fromMoments, ...fromHistory]
    .sort((a, b) => Date.parse(b.item.at) - Date.parse(a.item.at) || b.rank - a.rank)
    .map(({ item }) => item);
}
