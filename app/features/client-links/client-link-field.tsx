// The new client link, shown to the staff member who asked for it: in a
// read-only field (select it and copy, without JavaScript) with a Copy button
// once JavaScript runs, as the invitation link is (settings/invitation-link).
import { useState } from 'react';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { useHydrated } from '~/lib/use-hydrated';
import { CLIENT_LINK_TEXTS as TEXTS } from './texts';

export function ClientLinkField({ link }: { link: string }) {
  const hydrated = useHydrated();
  // The link last copied: a new link is a new thing to copy.
  const [copiedLink, setCopiedLink] = useState<string | null>(null);
  const copied = copiedLink === link;
  return (
    <div className="mb-6 grid gap-2 rounded-md border border-border p-3">
      <Label htmlFor="client-link">{TEXTS.fieldLabel}</Label>
      <div className="flex gap-2">
        <Input
          id="client-link"
          readOnly
          value={link}
          aria-describedby="client-link-note"
          onFocus={(event) => event.currentTarget.select()}
          className="font-mono text-xs"
        />
        {hydrated ? (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => {
              void navigator.clipboard?.writeText(link).then(() => setCopiedLink(link));
            }}
          >
            {copied ? TEXTS.copied : TEXTS.copy}
          </Button>
        ) : null}
      </div>
      <p id="client-link-note" className="text-xs text-muted-foreground">
        {TEXTS.fieldNote}
      </p>
      <p role="status" className="sr-only">
        {copied ? TEXTS.copied : ''}
      </p>
    </div>
  );
}
