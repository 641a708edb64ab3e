import { deadlineNote } from './deadline';

/** The deadline's days left, in red under 7 days or past (the list and the record page). */
export function DaysLeft({ deadline, today }: { deadline: string; today: string }) {
  const note = deadlineNote(deadline, today);
  return <span className={note.urgent ? 'font-medium text-destructive' : 'text-muted-foreground'}>{note.text}</span>;
}
