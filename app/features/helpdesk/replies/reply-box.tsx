// The conversation's reply box (decision 076): the message, Send reply and
// Add note, a canned reply inserted (without JavaScript: choose and press
// Insert, the page comes back with it in the box; with JavaScript: put in at
// the cursor at once) and Suggest reply (the provider's draft comes back in
// the box for the person to edit; nothing is sent by it). Without an AI
// provider, Suggest reply offers the account's templates and canned replies
// most like the customer's last message (decision 083), inserted like a
// canned reply: the person always edits before sending.
import { useRef } from 'react';
import { Form } from 'react-router';
import { SectionHeading } from '~/components/page-header';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { NativeSelect, Textarea } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { usePresence } from '../sla/conversation-panels';
import type { CannedReply, RankedReply } from './reply-tools.server';
import { REPLY_TOOL_TEXTS as TEXTS } from './texts';

export interface ReplyBoxProps {
  /** Shown above the message: who else is replying. */
  replying?: React.ReactNode;
  channel: string;
  recipient: string;
  canned: CannedReply[];
  aiConfigured: boolean;
  smsConfigured: boolean;
  /** What came back from the last post: the text, an error, or a notice (a draft put in). */
  typed: { body: string; error?: string; notice?: string; draft?: string; ranked?: RankedReply[] } | null;
}

export function ReplyBox({ replying, channel, recipient, canned, aiConfigured, smsConfigured, typed }: ReplyBoxProps) {
  const box = useRef<HTMLTextAreaElement>(null);
  // Colleagues see that this person is replying while the box has focus (decision 075).
  usePresence(box);
  const picked = useRef<HTMLSelectElement>(null);
  const suggestions = useRef<HTMLFieldSetElement>(null);
  const phone = channel === 'sms' || channel === 'whatsapp';

  // With JavaScript the canned reply goes in at the cursor; without, the button posts the form (intent=canned).
  const insertAtCursor = (event: React.MouseEvent<HTMLButtonElement>, text: string | undefined) => {
    const area = box.current;
    if (text === undefined || !area) return;
    event.preventDefault();
    const start = area.selectionStart ?? area.value.length;
    const end = area.selectionEnd ?? start;
    area.value = area.value.slice(0, start) + text + area.value.slice(end);
    area.focus();
    area.setSelectionRange(start + text.length, start + text.length);
  };
  const insertCanned = (event: React.MouseEvent<HTMLButtonElement>) =>
    insertAtCursor(event, canned.find((c) => c.id === picked.current?.value)?.body);
  // The same for a ranked suggestion (without JavaScript: intent=use_suggestion posts the form).
  const insertSuggestion = (event: React.MouseEvent<HTMLButtonElement>) => {
    const chosen = suggestions.current?.querySelector<HTMLInputElement>('input[name="suggestion_id"]:checked')?.value;
    insertAtCursor(event, typed?.ranked?.find((r) => r.id === chosen)?.body);
  };

  return (
    <Card>
      <CardHeader>
        <SectionHeading>Reply</SectionHeading>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-3">
          {replying}
          <Label htmlFor="reply-body">Message</Label>
          <Textarea
            // A draft put in by the server replaces what the box shows.
            key={typed?.draft ?? 'typed'}
            ref={box}
            id="reply-body"
            name="body"
            rows={phone ? 4 : 6}
            required
            maxLength={20000}
            defaultValue={typed?.body ?? ''}
            aria-describedby={typed?.error ? 'reply-error' : typed?.notice ? 'reply-notice' : undefined}
          />
          {typed?.error ? (
            <p id="reply-error" role="alert" className="text-sm text-destructive">
              {typed.error}
            </p>
          ) : null}
          {typed?.notice ? (
            <p id="reply-notice" role="status" className="text-sm text-muted-foreground">
              {typed.notice}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" name="intent" value="reply">
              Send reply
            </Button>
            <Button type="submit" name="intent" value="note" variant="outline">
              Add note
            </Button>
            <Button type="submit" name="intent" value="suggest" variant="outline" formNoValidate>
              Suggest reply
            </Button>
          </div>
          {typed?.ranked?.length ? (
            <fieldset ref={suggestions} className="grid gap-2 rounded-md border p-3" data-testid="suggestions">
              <legend className="px-1 text-sm font-medium">Suggestions from your templates</legend>
              {typed.ranked.map((r, i) => (
                <label key={r.id} className="flex items-start gap-2 text-sm">
                  <input type="radio" name="suggestion_id" value={r.id} defaultChecked={i === 0} className="mt-1" />
                  <span className="grid gap-0.5">
                    <span className="font-medium">
                      {r.name} <span className="text-xs font-normal text-muted-foreground">({r.source === 'template' ? 'template' : 'canned reply'})</span>
                    </span>
                    <span className="line-clamp-3 whitespace-pre-wrap text-muted-foreground [overflow-wrap:anywhere]">{r.body}</span>
                  </span>
                </label>
              ))}
              <div>
                <Button type="submit" name="intent" value="use_suggestion" variant="outline" size="sm" formNoValidate onClick={insertSuggestion}>
                  Insert suggestion
                </Button>
              </div>
            </fieldset>
          ) : null}
          {canned.length ? (
            <div className="flex flex-wrap items-end gap-2">
              <div className="grid gap-1">
                <Label htmlFor="canned_reply_id">Canned reply</Label>
                <NativeSelect ref={picked} id="canned_reply_id" name="canned_reply_id" defaultValue="">
                  <option value="">Choose…</option>
                  {canned.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <Button type="submit" name="intent" value="canned" variant="outline" formNoValidate onClick={insertCanned}>
                Insert
              </Button>
            </div>
          ) : null}
          {aiConfigured ? null : <p className="text-xs text-muted-foreground" data-testid="suggest-unavailable">{TEXTS.noAiProviderRanked}</p>}
          {phone && !smsConfigured ? <p className="text-xs text-destructive">{TEXTS.noSmsProvider}</p> : null}
          <p className="text-xs text-muted-foreground">
            A reply is sent to {recipient} by {channel === 'email' ? 'email' : channel === 'sms' ? 'SMS' : 'WhatsApp'}; a note stays inside the team.
          </p>
        </Form>
      </CardContent>
    </Card>
  );
}
