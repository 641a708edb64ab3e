// The SLA timer as text in its colour (decision 075). The time left is counted
// from the stored deadline when the page renders; the live revalidation
// renders it again.
import { cn } from '~/lib/utils';
import { SLA_TONE_CLASSES, slaTimer } from './timer';

export function SlaTimerText({ dueAt, className }: { dueAt: string | null; className?: string }) {
  const timer = slaTimer(dueAt);
  return (
    <span className={cn(SLA_TONE_CLASSES[timer.tone], className)} data-sla={timer.tone} suppressHydrationWarning>
      {timer.text}
    </span>
  );
}
