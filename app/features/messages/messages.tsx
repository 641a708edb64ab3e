import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Clock, Inbox, Mail, MessageCircle, MessageSquare, Radio, Smartphone } from '~/components/icons';
import { Form, useSearchParams } from 'react-router';
import type { Route } from './+types/messages';
import { PreviewBanner, SampleBadge } from '~/components/preview-banner';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { Badge } from '~/components/ui/badge';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { formatDateTime } from '~/lib/dates';
import { MESSAGE_STATS, SAMPLE_MESSAGES, type SampleMessage } from './samples';
import { CHANNEL_LABELS, CHANNEL_OPTIONS, composeMessageSchema, type Channel } from './schema';
import { messageSentText, SIMULATED_ACTIONS } from '~/lib/simulated';
import { simulatedCreate } from '~/lib/simulated.server';
import { cn } from '~/lib/utils';
import { CreateLink } from '~/components/create-link';
import { pageTitle } from '~/lib/page-title';

const LIST_PATH = '/messages';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Messages') }];

export async function action(args: Route.ActionArgs) {
  return simulatedCreate(args, {
    action: 'message',
    schema: composeMessageSchema,
    listPath: LIST_PATH,
    successText: (message) => messageSentText(CHANNEL_LABELS[message.channel]),
  });
}

export default function Messages({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  return (
    <>
      <PreviewBanner />
      <PageHeader
        title="Messages"
        description="One inbox for Email, WhatsApp and SMS conversations."
        actions={
          <CreateLink to="?new">Compose</CreateLink>
        }
      />
      <StatGrid label="Inbox summary">
        <StatCard label="Unread" value={MESSAGE_STATS.unread} note="Waiting for a reply" icon={Inbox} />
        <StatCard label="Messages Today" value={MESSAGE_STATS.totalToday} note="Across all channels" icon={MessageSquare} />
        <StatCard label="Avg Response" value={MESSAGE_STATS.averageResponse} note="Last 7 days" icon={Clock} />
        <StatCard label="Channels" value={MESSAGE_STATS.channels} note="Email, WhatsApp, SMS" icon={Radio} />
      </StatGrid>
      <Card>
        <CardHeader>
          <SectionHeading>Unified Inbox</SectionHeading>
          <p className="text-sm text-muted-foreground">Sample conversations of this demonstration screen.</p>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-3">
            {SAMPLE_MESSAGES.map((message) => (
              <MessageRow key={message.id} message={message} />
            ))}
          </ul>
        </CardContent>
      </Card>
      <UrlDialog
        open={searchParams.has('new')}
        closeTo={LIST_PATH}
        title="Compose Message"
        description="Send a message by email, WhatsApp or SMS. A subject is needed for email only."
      >
        <ComposeForm lastResult={actionData?.result} />
      </UrlDialog>
    </>
  );
}

const CHANNEL_ICONS: Record<Channel, typeof Mail> = { email: Mail, whatsapp: MessageCircle, sms: Smartphone };

/** The channel a message came by, in words and with its icon (not colour alone). */
function ChannelBadge({ channel }: { channel: Channel }) {
  const Icon = CHANNEL_ICONS[channel];
  return (
    <Badge variant="outline" className="gap-1" data-channel={channel}>
      <Icon className="size-3" aria-hidden="true" />
      {CHANNEL_LABELS[channel]}
    </Badge>
  );
}

function MessageRow({ message }: { message: SampleMessage }) {
  const unread = message.status === 'unread';
  return (
    <li
      className={cn(
        'flex gap-3 rounded-lg border p-4',
        unread ? 'border-primary/40 bg-accent' : 'border-border',
      )}
      data-unread={unread || undefined}
    >
      {/* The unread marker: a dot for the eye, the word for everyone. */}
      <span
        aria-hidden="true"
        className={cn('mt-1.5 size-2.5 shrink-0 rounded-full', unread ? 'bg-primary' : 'bg-transparent')}
      />
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className={cn('text-sm', unread ? 'font-bold' : 'font-medium')}>{message.sender}</h3>
          <ChannelBadge channel={message.channel} />
          <SampleBadge />
          <StatusBadge status={message.status} label={unread ? 'Unread' : 'Replied'} />
        </div>
        <p className="text-xs text-muted-foreground">{message.senderContact}</p>
        {message.subject ? <p className="text-sm font-medium">{message.subject}</p> : null}
        <p className="text-sm text-muted-foreground">{message.preview}</p>
        <p className="text-xs text-muted-foreground">
          <time dateTime={message.receivedAt}>{formatDateTime(message.receivedAt)}</time>
        </p>
      </div>
    </li>
  );
}

function ComposeForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(composeMessageSchema, {
    id: 'compose-message',
    lastResult,
    defaultValue: { channel: 'email' },
  });
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.recipient} label="Recipient" hint="An email address or a phone number." />
        <SelectField field={fields.channel} label="Channel" options={CHANNEL_OPTIONS} />
      </div>
      <TextField field={fields.subject} label="Subject" hint="Required for email." />
      <TextareaField field={fields.message} label="Message" rows={5} />
      <DialogActions closeTo={LIST_PATH}>
        <SubmitButton label="Send Message" busyLabel={SIMULATED_ACTIONS.message.busyLabel} />
      </DialogActions>
    </Form>
  );
}
