// A pending invitation's new link, shown to the admin who asked for it: in a
// read-only field (select it and copy, without JavaScript) with a Copy button
// once JavaScript runs. With JavaScript it is also copied as soon as it
// arrives, when the browser still counts the click on Copy Link as the
// person's (else the Copy button does it).
import { useEffect, useState } from 'react';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { USER_TEXTS } from '~/lib/schemas/settings-users';
import { useHydrated } from '~/lib/use-hydrated';

export function InvitationLink({ id, email, link }: { id: string; email: string; link: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const fieldId = `invitation-link-${id}`;
  useEffect(() => {
    navigator.clipboard?.writeText(link).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  }, [link]);
  return (
    <div className="grid w-full gap-2">
      <Label htmlFor={fieldId}>{USER_TEXTS.linkLabel(email)}</Label>
      <div className="flex gap-2">
        <Input
          id={fieldId}
          readOnly
          value={link}
          aria-describedby={`${fieldId}-note`}
          onFocus={(event) => event.currentTarget.select()}
          className="font-mono text-xs"
        />
        {hydrated ? (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => {
              void navigator.clipboard.writeText(link).then(() => setCopied(true));
            }}
          >
            {copied ? USER_TEXTS.copied : USER_TEXTS.copy}
          </Button>
        ) : null}
      </div>
      <p id={`${fieldId}-note`} className="text-xs text-muted-foreground">
        {USER_TEXTS.linkNote}
      </p>
      <p role="status" className="sr-only">
        {copied ? USER_TEXTS.copied : ''}
      </p>
    </div>
  );
}
