import { normaliseStatus, statusLabel, statusTone } from '~/lib/tones';
import { Badge } from '~/components/ui/badge';
import { cn } from '~/lib/utils';

export { normaliseStatus, statusLabel, statusTone };

/** A status in words, in the product's one colour language (see app/lib/tones.ts). */
export function StatusBadge({
  status,
  label,
  className,
}: {
  status: string;
  /** The words to show, when a screen says it differently from the raw value. */
  label?: string;
  className?: string;
}) {
  return (
    <Badge variant={statusTone(status)} data-status={normaliseStatus(status)} className={cn(className)}>
      {label ?? statusLabel(status)}
    </Badge>
  );
}
