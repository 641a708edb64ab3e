// Where Twilio posts for an 'sms' integration (decision 076), shown with the
// integration in Settings → Integrations: the URL for incoming messages (the
// number's "A message comes in" webhook, HTTP POST) and the status callback
// the helpdesk sets on each message it sends.
export function SmsHookNote({ origin, id }: { origin: string; id: string }) {
  const inbound = `${origin}/hooks/sms/${id}`;
  return (
    <div className="grid gap-1 text-xs text-muted-foreground" data-testid="sms-hook">
      <p>
        Incoming messages: set your Twilio number&apos;s (and WhatsApp sender&apos;s) webhook to{' '}
        <code className="select-all break-all text-foreground">{inbound}</code> (HTTP POST).
      </p>
      <p>
        Delivery statuses arrive at <code className="break-all">{inbound}/status</code>, set on each message sent.
      </p>
    </div>
  );
}
