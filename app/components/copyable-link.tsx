// A link made for a staff member to hand on (an invitation's, a quote's or an
// invoice's client link): in a read-only field, selected on focus so it can be
// copied without JavaScript, with a Copy button once JavaScript runs. With
// `copyOnArrival` it is also copied as soon as it shows, while the browser
// still counts the click that asked for it as the person's (else Copy does it).
import { useEffect, useState } from 'react';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { cn } from '~/lib/utils';
import { useHydrated } from '~/lib/use-hydrated';

const TEXTS = { copy: 'Copy', copied: 'Copied' } as const;

export function CopyableLink({ id, label, note, link, copyOnArrival = false, className }: {
  /** The field's id; its note is `${id}-note`. */
  id: string;
  label: string;
  note: string;
  link: string;
  copyOnArrival?: boolean;
  className?: string;
}) {
  const hydrated = useHydrated();
  // The link last copied: a new link is a new thing to copy.
  const [copiedLink, setCopiedLink] = useState<string | null>(null);
  const copied = copiedLink === link;
  const copy = () => navigator.clipboard?.writeText(link).then(() => setCopiedLink(link), () => setCopiedLink(null));
  useEffect(() => {
    if (copyOnArrival) void copy();
    // Once per link: `copy` is new on every render but copies this same link.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [copyOnArrival, link]);
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={link}
          aria-describedby={`${id}-note`}
          onFocus={(event) => event.currentTarget.select()}
          className="font-mono text-xs"
        />
        {hydrated ? (
          <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
            {copied ? TEXTS.copied : TEXTS.copy}
          </Button>
        ) : null}
      </div>
      <p id={`${id}-note`} className="text-xs text-muted-foreground">
        {note}
      </p>
      <p role="status" className="sr-only">
        {copied ? TEXTS.copied : ''}
      </p>
    </div>
  );
}
