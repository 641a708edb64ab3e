// Compose (/messages/new, decision 076): a new conversation with one of the
// account's contacts by email, SMS or WhatsApp, its first message really sent
// (start_conversation queues the mail job, or the SMS job when the account
// has an SMS provider; without one the message is kept as failed). A plain
// form checked on the server: works without JavaScript, and what was typed
// comes back with a refusal.
import { Form, Link, redirect } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/compose';
import { PageHeader } from '~/components/page-header';
import { Button } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import { Input, NativeSelect, Textarea } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { kickJobRunner } from '~/jobs/kick.server';
import { requireSessionClient, requireUserWith } from '~/lib/auth.server';
import { ALTERED_FORM_MESSAGE, readFormData } from '~/lib/forms.server';
import { isUuid, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { CHANNEL_OPTIONS, CHANNELS } from '../texts';
import { COMPOSE_TEXTS as TEXTS } from '../replies/texts';

export const meta: Route.MetaFunction = () => [{ title: `${TEXTS.title} · Messages` }];

const FIELDS = ['contact_id', 'channel', 'subject', 'body'] as const;
type Typed = Record<(typeof FIELDS)[number], string>;

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const [{ profile }, contacts] = await requireUserWith(request, context, (supabase) =>
    supabase.from('contacts').select('id, name, email, phone').order('name').order('id').limit(1000),
  );
  const preset = url.searchParams.get('contact');
  return {
    contacts: (contacts.data ?? []).map((c) => ({ id: c.id, name: c.name, email: c.email.endsWith('.invalid') ? null : c.email, phone: c.phone })),
    contactsFailed: contacts.error !== null,
    preset: preset && isUuid(preset) ? preset : '',
    canWrite: canWriteBusiness(profile?.role),
  };
}

export async function action(args: Route.ActionArgs) {
  const form = await readFormData(args.request);
  const altered = [...new Set(form.keys())].some((name) => form.getAll(name).length > 1 || typeof form.get(name) !== 'string');
  const typed = Object.fromEntries(FIELDS.map((name) => [name, String(form.get(name) ?? '')])) as Typed;
  const failed = (message: string, status = 400) => dataWithError(args, { typed, error: message }, message, { status });
  if (altered) return failed(ALTERED_FORM_MESSAGE);
  if (!isUuid(typed.contact_id)) return failed('Choose a contact');
  if (!CHANNELS.some((c) => c === typed.channel)) return failed('Choose a channel');
  if (typed.subject.length > 300) return failed('A subject can be at most 300 characters');
  if (!typed.body.trim()) return failed('Write a message first');
  if (typed.body.length > 20000) return failed('A message can be at most 20,000 characters');

  const supabase = await requireSessionClient(args.request, args.context);
  const { data: id, error } = await supabase.rpc('start_conversation', {
    p_contact_id: typed.contact_id,
    p_channel: typed.channel,
    p_subject: typed.subject,
    p_body: typed.body,
  });
  if (error) return failed(serverMessage(error, TEXTS.failed), error.code === '42501' ? 403 : error.code === '22023' ? 400 : 500);
  if (typeof id !== 'string') throw redirect('/messages');
  kickJobRunner(args.context);
  return redirectWithSuccess(`/messages/${id}`, TEXTS.sent);
}

export default function Compose({ loaderData, actionData }: Route.ComponentProps) {
  const { contacts, contactsFailed, preset, canWrite } = loaderData;
  const typed = actionData?.typed;
  return (
    <>
      <PageHeader
        title={TEXTS.title}
        description={TEXTS.description}
        actions={
          <Button asChild variant="outline">
            <Link to="/messages">{TEXTS.back}</Link>
          </Button>
        }
      />
      <Card>
        <CardContent className="pt-6">
          {!canWrite ? (
            <p className="text-sm text-muted-foreground">Only admins and members start conversations.</p>
          ) : contactsFailed ? (
            <p className="text-sm text-destructive">The contacts could not be loaded. Please try again in a moment.</p>
          ) : contacts.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              {TEXTS.noContacts} <Link className="underline" to="/clients">Clients</Link>
            </p>
          ) : (
            <Form method="post" className="grid max-w-2xl gap-4">
              <div className="grid gap-1">
                <Label htmlFor="contact_id">To</Label>
                <NativeSelect id="contact_id" name="contact_id" required defaultValue={typed?.contact_id ?? preset}>
                  <option value="">Choose a contact…</option>
                  {contacts.map((c) => (
                    <option key={c.id} value={c.id}>
                      {[c.name, c.email, c.phone].filter(Boolean).join(' · ')}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <div className="grid gap-1">
                <Label htmlFor="channel">Channel</Label>
                <NativeSelect id="channel" name="channel" required defaultValue={typed?.channel ?? 'email'}>
                  {CHANNEL_OPTIONS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <div className="grid gap-1">
                <Label htmlFor="subject">Subject</Label>
                <Input id="subject" name="subject" maxLength={300} defaultValue={typed?.subject ?? ''} aria-describedby="subject-hint" />
                <p id="subject-hint" className="text-xs text-muted-foreground">
                  Needed for email; an SMS or WhatsApp conversation is named after the contact when left empty.
                </p>
              </div>
              <div className="grid gap-1">
                <Label htmlFor="body">Message</Label>
                <Textarea id="body" name="body" rows={6} required maxLength={20000} defaultValue={typed?.body ?? ''} />
              </div>
              {actionData?.error ? (
                <p role="alert" className="text-sm text-destructive">
                  {actionData.error}
                </p>
              ) : null}
              <div>
                <Button type="submit">Send</Button>
              </div>
            </Form>
          )}
        </CardContent>
      </Card>
    </>
  );
}
