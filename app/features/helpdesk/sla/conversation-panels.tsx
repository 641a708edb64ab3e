// The conversation page's parts of decision 075: the SLA deadlines and
// breaches, the customer's CSAT answer, tags, merge into another conversation
// of the same contact, and "a colleague is replying". Plain forms, so tags and
// merge work without JavaScript; presence needs it and is simply absent without.
import { useEffect, useRef } from 'react';
import { Form, Link, useFetcher } from 'react-router';
import { SectionHeading } from '~/components/page-header';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { Input, NativeSelect } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { formatDateTime } from '~/lib/dates';
import { SlaTimerText } from './sla-timer-text';

const TARGETS: Record<string, string> = { first_response: 'First response', resolution: 'Resolution', next_response: 'Next response' };

export interface ConversationSla {
  first_response_due_at: string | null;
  resolution_due_at: string | null;
  /** Decision 083: running while a customer's later message waits for our reply. */
  next_response_due_at?: string | null;
  sla_due_at: string | null;
  first_responded_at: string | null;
  resolved_at: string | null;
  merged_into_id?: string | null;
}

export function SlaPanel({
  conversation,
  breaches,
  csat,
}: {
  conversation: ConversationSla;
  breaches: { target: string; due_at: string }[];
  csat: { score: number | null; comment: string | null; sent_at: string | null; answered_at: string | null } | null;
}) {
  const met = (done: string | null, due: string | null) => (done && due ? (done <= due ? ' (met)' : ' (missed)') : '');
  return (
    <Card>
      <CardHeader>
        <SectionHeading>SLA</SectionHeading>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        {conversation.merged_into_id ? (
          <p data-testid="merged-into">
            Merged into{' '}
            <Link className="underline" to={`/messages/${conversation.merged_into_id}`}>
              another conversation
            </Link>
          </p>
        ) : null}
        <p data-testid="sla-timer">
          <SlaTimerText dueAt={conversation.sla_due_at} />
        </p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          <dt className="text-muted-foreground">First response due</dt>
          <dd>
            {conversation.first_response_due_at ? formatDateTime(conversation.first_response_due_at) : '—'}
            {met(conversation.first_responded_at, conversation.first_response_due_at)}
          </dd>
          <dt className="text-muted-foreground">Resolution due</dt>
          <dd>
            {conversation.resolution_due_at ? formatDateTime(conversation.resolution_due_at) : '—'}
            {met(conversation.resolved_at, conversation.resolution_due_at)}
          </dd>
          {conversation.next_response_due_at ? (
            <>
              <dt className="text-muted-foreground">Next response due</dt>
              <dd>{formatDateTime(conversation.next_response_due_at)}</dd>
            </>
          ) : null}
        </dl>
        {breaches.length ? (
          <ul className="text-destructive" aria-label="SLA breaches">
            {breaches.map((b) => (
              <li key={`${b.target}:${b.due_at}`}>
                {TARGETS[b.target] ?? b.target} breached (due {formatDateTime(b.due_at)})
              </li>
            ))}
          </ul>
        ) : null}
        <p data-testid="csat">
          <span className="text-muted-foreground">Customer satisfaction: </span>
          {csat?.answered_at
            ? `${csat.score} of 5${csat.comment ? ` — “${csat.comment}”` : ''}`
            : csat?.sent_at
              ? 'Asked, no answer yet'
              : 'Not asked yet'}
        </p>
      </CardContent>
    </Card>
  );
}

export function TagsAndMerge({
  tags,
  candidates,
}: {
  tags: string[];
  candidates: { id: string; subject: string; status: string; last_message_at: string }[];
}) {
  return (
    <Card>
      <CardHeader>
        <SectionHeading>Tags</SectionHeading>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Form method="post" className="grid gap-2">
          <Label htmlFor="conversation-tags">Tags, separated by commas</Label>
          <Input id="conversation-tags" name="tags" defaultValue={tags.join(', ')} maxLength={900} placeholder="billing, vip" />
          <Button type="submit" name="intent" value="tags" variant="outline">
            Save tags
          </Button>
        </Form>
        {candidates.length ? (
          <Form method="post" className="grid gap-2">
            <Label htmlFor="merge-target">Merge this conversation into</Label>
            <NativeSelect id="merge-target" name="target_id" defaultValue="">
              <option value="" disabled>
                Choose a conversation of this contact
              </option>
              {candidates.map((c) => (
                <option key={c.id} value={c.id}>
                  {(c.subject || '(no subject)').slice(0, 60)} · {formatDateTime(c.last_message_at)}
                </option>
              ))}
            </NativeSelect>
            <p className="text-xs text-muted-foreground">Its messages move there; this one is resolved and points to it.</p>
            <Button type="submit" name="intent" value="merge" variant="outline">
              Merge
            </Button>
          </Form>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** "Name is replying…" for the colleagues whose reply box had focus in the last seconds. */
export function ReplyingNotice({ names }: { names: string[] }) {
  if (!names.length) return null;
  return (
    <p role="status" className="text-sm text-amber-700 dark:text-amber-400" data-testid="replying">
      {names.join(', ')} {names.length === 1 ? 'is' : 'are'} replying…
    </p>
  );
}

/** Marks the caller as replying while the reply box has focus: at most every 10 seconds (JavaScript only). */
export function usePresence(box: React.RefObject<HTMLTextAreaElement | null>) {
  const fetcher = useFetcher();
  const last = useRef(0);
  const submit = fetcher.submit;
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const mark = () => {
      if (Date.now() - last.current < 10_000) return;
      last.current = Date.now();
      void submit({ intent: 'replying' }, { method: 'post' });
    };
    element.addEventListener('focus', mark);
    element.addEventListener('input', mark);
    return () => {
      element.removeEventListener('focus', mark);
      element.removeEventListener('input', mark);
    };
  }, [box, submit]);
}
