// Resend and Copy client link on a sent quote's or invoice's page. Both are
// plain forms posted to the page (they work without JavaScript); the new link
// comes back in the action's answer and is shown by ClientLinkField.
import { Form } from 'react-router';
import { SubmitButton } from '~/components/submit-button';
import { CLIENT_LINK_TEXTS as TEXTS } from './texts';

/** `requestId`: new on each page render, so a double post of one press queues one mail. */
export function ClientLinkActions({ page, requestId }: { page: string; requestId: string }) {
  return (
    <>
      <Form method="post" action={page}>
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="request" value={requestId} />
        <SubmitButton intent="resend" label={TEXTS.resend} busyLabel="Sending..." variant="outline" />
      </Form>
      <Form method="post" action={page}>
        <input type="hidden" name="intent" value="copy_link" />
        <SubmitButton intent="copy_link" label={TEXTS.copyLink} busyLabel="Copying..." variant="outline" />
      </Form>
    </>
  );
}
