// A conversation (/messages/:id, decision 060) on the record page kit: the
// thread (inbound mail, replies with their delivery status, internal notes
// marked as such), Reply and Add note, and for those who work the inbox the
// assignee, priority and Resolve/Reopen. Plain forms: works without JavaScript.
import { data, Form, type ShouldRevalidateFunctionArgs } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/conversation';
import { SectionHeading } from '~/components/page-header';
import { FactsPanel } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { StatusBadge } from '~/components/status-badge';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { NativeSelect } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { kickJobRunner } from '~/jobs/kick.server';
import { formatDateTime } from '~/lib/dates';
import { ALTERED_FORM_MESSAGE, readFormData } from '~/lib/forms.server';
import { recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { isUuid, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { cn } from '~/lib/utils';
import { useLiveRevalidation } from './live';
import { loadConversation, replyTo, updateConversation } from './queries.server';
import { extraIntent, loadConversationExtras } from './sla/conversation-extras.server';
import { ReplyingNotice, SlaPanel, TagsAndMerge } from './sla/conversation-panels';
import { ReplyBox } from './replies/reply-box';
import { suggestFor, withCannedReply, withSuggestion } from './replies/reply-tools.server';
import { REPLY_TOOL_TEXTS } from './replies/texts';
import { CHANNEL_OPTIONS, CONVERSATION_TEXTS as TEXTS, labelOf, PRIORITIES, PRIORITY_OPTIONS, STATUS_OPTIONS } from './texts';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `${loaderData.conversation.subject || '(no subject)'} · Messages` : TEXTS.notFound },
];

export async function loader(args: Route.LoaderArgs) {
  // The SLA, CSAT, tags, merge and presence parts (decision 075) read alongside: one round trip.
  const { profile, found } = await requireUserWithRecord(args, TEXTS.notFound, async (supabase, id) => {
    const [conversation, extras] = await Promise.all([loadConversation(supabase, id), loadConversationExtras(supabase, id)]);
    return conversation && { ...conversation, extras };
  });
  const replying = found.extras.replying.filter((userId) => userId !== profile?.id);
  return { ...found, extras: { ...found.extras, replying }, canWrite: canWriteBusiness(profile?.role) };
}

/** A presence post (the reply box's script) does not reload the page. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formData?.get('intent') === 'replying' ? false : defaultShouldRevalidate;
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const writer = await recordWriter(args, '/messages', TEXTS.notFound);
    const { supabase, id, page } = writer;
    const form = await readFormData(args.request);
    // Each field at most once and as text: a form sent twice over, with two intents or a file, was made by hand.
    const altered = [...new Set(form.keys())].some((name) => form.getAll(name).length > 1 || typeof form.get(name) !== 'string');
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    const intent = field('intent');
    const body = field('body');
    const failed = (message: string, status = 400) => dataWithError(args, { intent, body, error: message }, message, { status });
    if (altered) return failed(ALTERED_FORM_MESSAGE);

    switch (intent) {
      case 'reply':
      case 'note': {
        const { error } = await replyTo(supabase, id, body, intent === 'note');
        if (error?.code === 'P0002') return failed(TEXTS.notFound, 404);
        // What was typed comes back with the refusal: nothing lost.
        if (error) return failed(serverMessage(error, TEXTS.replyFailed), error.code === '22023' ? 400 : 500);
        if (intent === 'reply') kickJobRunner(args.context);
        return redirectWithSuccess(page, intent === 'reply' ? TEXTS.replied : TEXTS.noted);
      }
      case 'resolve':
      case 'reopen': {
        const { data, error } = await updateConversation(supabase, id, { status: intent === 'resolve' ? 'resolved' : 'open' });
        if (error || !data) return failed(error ? serverMessage(error, TEXTS.failed) : TEXTS.notFound, error ? 500 : 404);
        return redirectWithSuccess(page, intent === 'resolve' ? TEXTS.resolved : TEXTS.reopened);
      }
      case 'update': {
        const priority = field('priority');
        const assignee = field('assignee_id');
        if (!PRIORITIES.some((p) => p === priority)) return failed('Choose a priority');
        if (assignee !== '' && !isUuid(assignee)) return failed('Choose someone to assign');
        const { data, error } = await updateConversation(supabase, id, { priority, assignee_id: assignee || null });
        // A person of another account (or none) is refused by the database's key.
        if (error?.code === '23503') return failed('Choose someone of this account to assign');
        if (error || !data) return failed(error ? serverMessage(error, TEXTS.failed) : TEXTS.notFound, error ? 500 : 404);
        return redirectWithSuccess(page, TEXTS.saved);
      }
      // The reply tools (decision 076): the text comes back with a canned reply or a suggested draft in it; nothing is sent.
      case 'canned': {
        const cannedId = field('canned_reply_id');
        if (!isUuid(cannedId)) return failed(REPLY_TOOL_TEXTS.chooseCanned);
        if (body.length > MAX_REPLY) return failed(REPLY_TOOL_TEXTS.tooLong);
        const withReply = await withCannedReply(supabase, id, cannedId, body);
        if (withReply === null) return failed(REPLY_TOOL_TEXTS.cannedGone, 404);
        if (withReply.length > MAX_REPLY) return failed(REPLY_TOOL_TEXTS.tooLong);
        return data({ intent, body: withReply, notice: REPLY_TOOL_TEXTS.inserted, draft: crypto.randomUUID() });
      }
      case 'suggest': {
        if (body.length > MAX_REPLY) return failed(REPLY_TOOL_TEXTS.tooLong);
        const suggestion = await suggestFor(supabase, id);
        if ('error' in suggestion) return failed(suggestion.error, suggestion.status);
        // Without an AI provider (decision 083): what was typed stays, the ranked templates are offered to insert.
        if ('ranked' in suggestion) return data({ intent, body, notice: REPLY_TOOL_TEXTS.ranked, ranked: suggestion.ranked });
        return data({ intent, body: suggestion.draft, notice: REPLY_TOOL_TEXTS.suggested, draft: crypto.randomUUID() });
      }
      case 'use_suggestion': {
        const suggestionId = field('suggestion_id');
        if (!isUuid(suggestionId)) return failed(REPLY_TOOL_TEXTS.chooseSuggestion);
        if (body.length > MAX_REPLY) return failed(REPLY_TOOL_TEXTS.tooLong);
        const withReply = await withSuggestion(supabase, id, suggestionId, body);
        if (withReply === null) return failed(REPLY_TOOL_TEXTS.suggestionGone, 404);
        if (withReply.length > MAX_REPLY) return failed(REPLY_TOOL_TEXTS.tooLong);
        return data({ intent, body: withReply, notice: REPLY_TOOL_TEXTS.suggestionInserted, draft: crypto.randomUUID() });
      }
      default:
        return (await extraIntent(intent, field, { supabase, id, page, failed })) ?? failed('Unknown action');
    }
  });
}

/** reply_to_conversation's limit: a box the reply tools fill past it could never be sent. */
const MAX_REPLY = 20_000;

const DELIVERY: Record<string, string> = { queued: 'Sending', sent: 'Sent', delivered: 'Delivered', failed: 'Not delivered' };

export default function Conversation({ loaderData, actionData }: Route.ComponentProps) {
  const { conversation, messages, messagesFailed, people, canWrite, extras, replyTools } = loaderData;
  useLiveRevalidation();
  const contact = conversation.contact as { id: string; name: string; email: string; phone: string | null; company: string | null } | null;
  const phoneChannel = conversation.channel === 'sms' || conversation.channel === 'whatsapp';
  const typed = actionData && 'body' in actionData ? actionData : null;
  const resolved = conversation.status === 'resolved';
  const nameOf = (p: (typeof people)[number]) => [p.first_name, p.last_name].filter(Boolean).join(' ') || p.email;
  const assignee = people.find((p) => p.id === conversation.assignee_id);
  return (
    <RecordPage
      back={{ to: '/messages', label: TEXTS.back }}
      title={conversation.subject || '(no subject)'}
      status={<StatusBadge status={conversation.status} label={labelOf(STATUS_OPTIONS, conversation.status)} />}
      subtitle={contact ? (phoneChannel ? `${contact.name} (${contact.phone ?? 'no phone'})` : `${contact.name} <${contact.email}>`) : undefined}
      actions={
        canWrite ? (
          <Form method="post">
            <Button type="submit" name="intent" value={resolved ? 'reopen' : 'resolve'} variant="outline">
              {resolved ? 'Reopen' : 'Resolve'}
            </Button>
          </Form>
        ) : null
      }
      facts={
        <>
          <FactsPanel
            facts={[
              { label: 'Contact', value: contact ? contact.name : null },
              { label: 'Email', value: contact?.email.endsWith('.invalid') ? null : contact?.email },
              { label: 'Phone', value: contact?.phone },
              { label: 'Company', value: contact?.company },
              { label: 'Channel', value: labelOf(CHANNEL_OPTIONS, conversation.channel) },
              { label: 'Priority', value: labelOf(PRIORITY_OPTIONS, conversation.priority) },
              { label: 'Assignee', value: assignee ? nameOf(assignee) : 'Unassigned' },
              { label: 'Started', value: formatDateTime(conversation.created_at) },
              { label: 'First response', value: conversation.first_responded_at ? formatDateTime(conversation.first_responded_at) : null },
              { label: 'Resolved', value: conversation.resolved_at ? formatDateTime(conversation.resolved_at) : null },
            ]}
          />
          <SlaPanel conversation={conversation} breaches={extras.breaches} csat={extras.csat} />
          {canWrite ? <TagsAndMerge tags={conversation.tags ?? []} candidates={extras.candidates} /> : null}
          {canWrite ? (
            <Card>
              <CardHeader>
                <SectionHeading>Assign</SectionHeading>
              </CardHeader>
              <CardContent>
                <Form method="post" className="grid gap-3">
                  <div className="grid gap-1">
                    <Label htmlFor="assignee_id">Assignee</Label>
                    <NativeSelect id="assignee_id" name="assignee_id" defaultValue={conversation.assignee_id ?? ''}>
                      <option value="">Unassigned</option>
                      {people.map((p) => (
                        <option key={p.id} value={p.id}>
                          {nameOf(p)}
                        </option>
                      ))}
                    </NativeSelect>
                  </div>
                  <div className="grid gap-1">
                    <Label htmlFor="priority">Priority</Label>
                    <NativeSelect id="priority" name="priority" defaultValue={conversation.priority}>
                      {PRIORITY_OPTIONS.map((o) => (
                        <option key={o.value} value={o.value}>
                          {o.label}
                        </option>
                      ))}
                    </NativeSelect>
                  </div>
                  <Button type="submit" name="intent" value="update" variant="outline">
                    Save
                  </Button>
                </Form>
              </CardContent>
            </Card>
          ) : null}
        </>
      }
    >
      <Card>
        <CardHeader>
          <SectionHeading id="thread-heading">Conversation</SectionHeading>
        </CardHeader>
        <CardContent>
          {messagesFailed ? <p className="text-sm text-destructive">The messages could not be loaded. Please try again in a moment.</p> : null}
          <ol aria-labelledby="thread-heading" className="grid gap-4" data-testid="thread">
            {messages.map((m) => (
              <li
                key={m.id}
                className={cn(
                  'grid gap-1 rounded-md border p-3 text-sm',
                  m.direction === 'outbound' && 'ml-6 bg-muted/50',
                  m.direction === 'note' && 'ml-6 border-dashed bg-amber-50 dark:bg-amber-950/30',
                )}
                data-direction={m.direction}
              >
                <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
                  <span className="font-medium text-foreground">
                    {m.direction === 'inbound' ? (m.sender_name ?? m.sender_email ?? m.sender_phone) : (m.sender_name ?? 'You')}
                  </span>
                  {m.direction === 'note' ? <span>Internal note</span> : null}
                  {m.sender_unverified ? (
                    <span className="font-medium text-destructive" data-testid="unverified-sender">
                      Unverified sender: claims your own domain but failed the mail check
                    </span>
                  ) : null}
                  {m.direction === 'outbound' && m.delivery_status ? (
                    <span data-testid="delivery">{DELIVERY[m.delivery_status] ?? m.delivery_status}{m.delivery_error ? `: ${m.delivery_error}` : ''}</span>
                  ) : null}
                  <time dateTime={m.created_at}>{formatDateTime(m.created_at)}</time>
                </p>
                {/* Text only: mail's HTML was reduced to text on the way in, and React escapes it. */}
                <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{m.body}</p>
                {m.attachments?.length ? (
                  <ul className="flex flex-wrap gap-2 text-xs" aria-label="Attachments">
                    {m.attachments.map((a) => (
                      <li key={a.id}>
                        {a.fetch_status === 'stored' && a.size_bytes !== null ? (
                          <>
                            {/* A download, never shown inline: the route answers as an attachment, sandboxed (decision 071). */}
                            <a className="underline" href={`/messages/${conversation.id}/attachments/${a.id}`} download>
                              {a.file_name}
                            </a>{' '}
                            <span className="text-muted-foreground">({formatBytes(a.size_bytes)})</span>
                          </>
                        ) : (
                          // SMS/WhatsApp media are fetched by the jobs runner (decision 089): waiting, or why it could not.
                          <span className="text-muted-foreground">
                            {a.file_name}: {a.fetch_status === 'failed' ? `Not fetched: ${a.fetch_error ?? 'unknown error'}` : 'Fetching…'}
                          </span>
                        )}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ol>
        </CardContent>
      </Card>
      {canWrite ? (
        <ReplyBox
          replying={<ReplyingNotice names={extras.replying.map((userId) => { const p = people.find((x) => x.id === userId); return p ? nameOf(p) : 'A colleague'; })} />}
          channel={conversation.channel}
          recipient={(phoneChannel ? contact?.phone : contact?.email) ?? 'the contact'}
          canned={replyTools.canned_replies}
          aiConfigured={replyTools.ai_configured}
          smsConfigured={replyTools.sms_configured}
          typed={typed}
        />
      ) : null}
    </RecordPage>
  );
}

/** '12 KB', '1.2 MB': an attachment's size beside its name. */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
