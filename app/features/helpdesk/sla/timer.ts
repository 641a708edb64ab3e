// The SLA timer as the inbox and a conversation show it (decision 075): from
// the deadline the database stored (sla_due_at, the next one still running),
// a text and a tone. Colour is never the only sign: the text says it too.

/** 'Due soon': the deadline within this many minutes. */
export const DUE_SOON_MINUTES = 60;

export type SlaTone = 'breached' | 'soon' | 'ok' | 'stopped';

export interface SlaTimer {
  tone: SlaTone;
  text: string;
}

/** '3 h 20 min', '45 min', '2 d 4 h': a span of minutes, short. */
export function formatSpan(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 60) return `${m} min`;
  if (m < 24 * 60) return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} h`;
  const days = Math.floor(m / (24 * 60));
  const hours = Math.floor((m % (24 * 60)) / 60);
  return hours ? `${days} d ${hours} h` : `${days} d`;
}

export function slaTimer(dueAt: string | null, now: Date = new Date()): SlaTimer {
  if (!dueAt) return { tone: 'stopped', text: 'No SLA running' };
  const left = (new Date(dueAt).getTime() - now.getTime()) / 60000;
  if (left <= 0) return { tone: 'breached', text: `Overdue by ${formatSpan(-left)}` };
  if (left <= DUE_SOON_MINUTES) return { tone: 'soon', text: `Due in ${formatSpan(left)}` };
  return { tone: 'ok', text: `Due in ${formatSpan(left)}` };
}

export const SLA_TONE_CLASSES: Record<SlaTone, string> = {
  breached: 'text-destructive font-medium',
  soon: 'text-amber-700 dark:text-amber-400 font-medium',
  ok: 'text-emerald-700 dark:text-emerald-400',
  stopped: 'text-muted-foreground',
};

export const SLA_FILTER_OPTIONS = [
  { value: 'breached', label: 'Breached' },
  { value: 'due_soon', label: 'Due soon' },
] as const;
export type SlaFilter = (typeof SLA_FILTER_OPTIONS)[number]['value'];
