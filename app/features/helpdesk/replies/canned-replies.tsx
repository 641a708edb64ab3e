// The canned replies library (/messages/replies, decision 076): the
// account's ready answers, added, edited and deleted here by admins and
// members (auditors read them), inserted into a reply on a conversation.
// Plain forms checked on the server: works without JavaScript.
import { Form, Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/canned-replies';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { Input, Textarea } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { requireSessionClient, requireUserWith } from '~/lib/auth.server';
import { ALTERED_FORM_MESSAGE, readFormData } from '~/lib/forms.server';
import { isUuid, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { CANNED_TEXTS as TEXTS } from './texts';

const PAGE = '/messages/replies';

export const meta: Route.MetaFunction = () => [{ title: `${TEXTS.title} · Messages` }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [{ profile }, replies] = await requireUserWith(request, context, (supabase) =>
    supabase.from('canned_replies').select('id, name, body, updated_at').order('name').limit(500),
  );
  return { replies: replies.data ?? [], failed: replies.error !== null, canWrite: canWriteBusiness(profile?.role) };
}

// Control characters other than line breaks and tabs in a name: refused (it shows in a select).
// eslint-disable-next-line no-control-regex -- the check itself
const CONTROL = /[\x00-\x1f\x7f]/;

export async function action(args: Route.ActionArgs) {
  const form = await readFormData(args.request);
  const altered = [...new Set(form.keys())].some((name) => form.getAll(name).length > 1 || typeof form.get(name) !== 'string');
  const field = (name: string) => String(form.get(name) ?? '');
  const intent = field('intent');
  const typed = { id: field('id'), name: field('name'), body: field('body') };
  const failed = (message: string, status = 400) => dataWithError(args, { intent, typed, error: message }, message, { status });
  if (altered) return failed(ALTERED_FORM_MESSAGE);
  if (intent !== 'create' && !isUuid(typed.id)) return failed('Canned reply not found', 404);
  if (intent === 'create' || intent === 'update') {
    const name = typed.name.trim();
    if (!name) return failed('Name is required');
    if (name.length > 120) return failed('A name can be at most 120 characters');
    if (CONTROL.test(name)) return failed('Remove line breaks and other control characters');
    if (!typed.body.trim()) return failed('Write the reply');
    if (typed.body.length > 20000) return failed('A reply can be at most 20,000 characters');
  }
  const supabase = await requireSessionClient(args.request, args.context);
  const answer = (error: { code?: string; message?: string } | null, count: number, done: string) => {
    if (error?.code === '23505') return failed(TEXTS.duplicate);
    if (error) return failed(serverMessage(error, TEXTS.failed), error.code === '42501' ? 403 : 500);
    if (count === 0) return failed('Canned reply not found', 404);
    return redirectWithSuccess(PAGE, done);
  };
  switch (intent) {
    case 'create': {
      const { data, error } = await supabase.from('canned_replies').insert({ name: typed.name.trim(), body: typed.body }).select('id');
      return answer(error, data?.length ?? 0, TEXTS.created);
    }
    case 'update': {
      const { data, error } = await supabase.from('canned_replies').update({ name: typed.name.trim(), body: typed.body }).eq('id', typed.id).select('id');
      return answer(error, data?.length ?? 0, TEXTS.updated);
    }
    case 'delete': {
      const { data, error } = await supabase.from('canned_replies').delete().eq('id', typed.id).select('id');
      return answer(error, data?.length ?? 0, TEXTS.deleted);
    }
    default:
      return failed('Unknown action');
  }
}

function ReplyFields({ idPrefix, name, body }: { idPrefix: string; name: string; body: string }) {
  return (
    <>
      <div className="grid gap-1">
        <Label htmlFor={`${idPrefix}-name`}>Name</Label>
        <Input id={`${idPrefix}-name`} name="name" required maxLength={120} defaultValue={name} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${idPrefix}-body`}>Reply</Label>
        <Textarea id={`${idPrefix}-body`} name="body" rows={4} required maxLength={20000} defaultValue={body} />
      </div>
    </>
  );
}

export default function CannedReplies({ loaderData, actionData }: Route.ComponentProps) {
  const { replies, failed, canWrite } = loaderData;
  const refused = actionData?.error ? actionData : null;
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
      {refused ? (
        <p role="alert" className="mb-4 text-sm text-destructive">
          {refused.error}
        </p>
      ) : null}
      {canWrite ? (
        <Card className="mb-6">
          <CardHeader>
            <SectionHeading>New canned reply</SectionHeading>
          </CardHeader>
          <CardContent>
            <Form method="post" className="grid max-w-2xl gap-3">
              <ReplyFields
                idPrefix="new"
                name={refused?.intent === 'create' ? refused.typed.name : ''}
                body={refused?.intent === 'create' ? refused.typed.body : ''}
              />
              <div>
                <Button type="submit" name="intent" value="create">
                  Add canned reply
                </Button>
              </div>
            </Form>
          </CardContent>
        </Card>
      ) : null}
      <section aria-labelledby="canned-heading" className="grid gap-3">
        <SectionHeading id="canned-heading">Library</SectionHeading>
        {failed ? <p className="text-sm text-destructive">{TEXTS.loadFailed}</p> : null}
        {!failed && replies.length === 0 ? <p className="text-sm text-muted-foreground">{TEXTS.empty}</p> : null}
        <ul className="grid gap-3" data-testid="canned-replies">
          {replies.map((r) => {
            const mine = refused?.intent === 'update' && refused.typed.id === r.id ? refused.typed : null;
            return (
              <li key={r.id}>
                <Card>
                  <CardContent className="grid gap-2 pt-6">
                    <p className="font-medium">{r.name}</p>
                    <p className="whitespace-pre-wrap text-sm text-muted-foreground [overflow-wrap:anywhere]">{r.body}</p>
                    {canWrite ? (
                      <details open={mine !== null}>
                        <summary className="cursor-pointer text-sm underline">Edit</summary>
                        <Form method="post" className="mt-3 grid max-w-2xl gap-3">
                          <input type="hidden" name="id" value={r.id} />
                          <ReplyFields idPrefix={`edit-${r.id}`} name={mine?.name ?? r.name} body={mine?.body ?? r.body} />
                          <div className="flex gap-2">
                            <Button type="submit" name="intent" value="update" variant="outline">
                              Save
                            </Button>
                          </div>
                        </Form>
                        <Form method="post" className="mt-2">
                          <input type="hidden" name="id" value={r.id} />
                          <Button type="submit" name="intent" value="delete" variant="destructive" size="sm">
                            Delete
                          </Button>
                        </Form>
                      </details>
                    ) : null}
                  </CardContent>
                </Card>
              </li>
            );
          })}
        </ul>
      </section>
    </>
  );
}
