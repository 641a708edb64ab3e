// /rfp/answers, the answer library (issue 38; decision 091): the account's reusable answers, searched by the
// start of any word of title, tags or answer (?q=, a GET form), added, edited and deleted by admins and
// members (auditors read them). On a bid's page the same answers are found and added to its proposal.
// Plain forms checked on the server: works without JavaScript.
import { parseWithZod } from '@conform-to/zod/v4';
import { Form } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/rfp-answers';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { requireUser, requireUserWith } from '~/lib/auth.server';
import { readFormData } from '~/lib/forms.server';
import { pageTitle } from '~/lib/page-title';
import { refuseReadOnly, refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { RfpTabs } from '../rfp-tabs';
import { AnswerForm } from './answer-form';
import { AnswerSearch } from './answer-search';
import { deleteAnswer, insertAnswer, loadAnswers, updateAnswer } from './queries.server';
import { answerActionSchema, ANSWERS_SHOWN } from './schema';
import { ANSWER_TEXTS as TEXTS } from './texts';

const PAGE = '/rfp/answers';

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title, 'RFP Radar') }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 100);
  const [{ profile }, answers] = await requireUserWith(request, context, (supabase) => loadAnswers(supabase, q));
  if (answers.error) console.error(`answers failed to load: ${answers.error.message}`);
  return { q, answers: answers.data ?? [], failed: answers.error !== null, canWrite: canWriteBusiness(profile?.role) };
}

export async function action(args: Route.ActionArgs) {
  const submission = parseWithZod(await readFormData(args.request), { schema: answerActionSchema });
  const { profile, supabase } = await requireUser(args.request, args.context);
  const refused = refuseReadOnly(args, profile);
  if (refused) return refused;
  if (submission.status !== 'success') return refuseSubmission(args, submission);
  const form = submission.value;
  const back = `${PAGE}${new URL(args.request.url).search}`;
  const { data, error } =
    form.intent === 'create' ? await insertAnswer(supabase, form)
      : form.intent === 'update' ? await updateAnswer(supabase, form.id, form)
        : await deleteAnswer(supabase, form.id);
  if (error || !data || data.length === 0) {
    const message = !error ? TEXTS.notFound : error.code === '23505' ? TEXTS.duplicate : serverMessage(error, TEXTS.failed);
    if (error && error.code !== '23505' && error.code !== '23514') console.error(`answer ${form.intent} failed: ${error.message}`);
    const status = !error ? 404 : error.code === '23505' ? 409 : error.code === '42501' ? 403 : 400;
    return dataWithError(args, { result: submission.reply({ formErrors: [message] }) }, message, { status });
  }
  const done = form.intent === 'create' ? TEXTS.created : form.intent === 'update' ? TEXTS.updated : TEXTS.deleted;
  return redirectWithSuccess(back, done);
}

export default function RfpAnswers({ loaderData, actionData }: Route.ComponentProps) {
  const { q, answers, failed, canWrite } = loaderData;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  const sent = lastResult?.initialValue as { intent?: string; id?: string } | undefined;
  return (
    <>
      <PageHeader title={TEXTS.title} description={TEXTS.description} />
      <RfpTabs current="/rfp/answers" />
      {canWrite ? (
        <Card className="mb-6">
          <CardHeader>
            <SectionHeading>{TEXTS.newHeading}</SectionHeading>
          </CardHeader>
          <CardContent>
            <AnswerForm id="new-answer" lastResult={sent?.intent === 'create' ? lastResult : undefined} />
          </CardContent>
        </Card>
      ) : null}
      <section aria-labelledby="answers-heading" className="grid gap-3">
        <SectionHeading id="answers-heading">{TEXTS.listHeading}</SectionHeading>
        <AnswerSearch id="answers-q" name="q" q={q} className="flex max-w-xl items-end gap-2" />
        {failed ? <p className="text-sm text-destructive">{TEXTS.loadFailed}</p> : null}
        {!failed && answers.length === 0 ? <p className="text-sm text-muted-foreground">{q ? TEXTS.noMatch : TEXTS.empty}</p> : null}
        {answers.length === ANSWERS_SHOWN ? <p className="text-sm text-muted-foreground">The first {ANSWERS_SHOWN} by title: search to find others.</p> : null}
        <ul className="grid gap-3" aria-label={TEXTS.listHeading}>
          {answers.map((a) => {
            const mine = sent?.id === a.id && (sent.intent === 'update' || sent.intent === 'delete');
            return (
              <li key={a.id}>
                <Card>
                  <CardContent className="grid gap-2 pt-6">
                    <h3 className="font-medium">{a.title}</h3>
                    {a.tags.length > 0 ? (
                      <p className="flex flex-wrap gap-1" aria-label="Tags">
                        {a.tags.map((tag) => <span key={tag} className="rounded bg-muted px-2 py-0.5 text-xs">{tag}</span>)}
                      </p>
                    ) : null}
                    <p className="whitespace-pre-wrap text-sm text-muted-foreground [overflow-wrap:anywhere]">{a.body}</p>
                    {canWrite ? (
                      <details open={mine}>
                        <summary className="cursor-pointer text-sm underline">Edit</summary>
                        <div className="mt-3 grid gap-3">
                          <AnswerForm
                            id={`answer-${a.id}`}
                            answerId={a.id}
                            defaultValue={{ title: a.title, body: a.body, tags: a.tags.join(', ') }}
                            lastResult={mine && sent?.intent === 'update' ? lastResult : undefined}
                          />
                          <Form method="post">
                            <input type="hidden" name="intent" value="delete" />
                            <input type="hidden" name="id" value={a.id} />
                            <Button type="submit" variant="destructive" size="sm">{TEXTS.remove}<span className="sr-only"> {a.title}</span></Button>
                          </Form>
                        </div>
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
