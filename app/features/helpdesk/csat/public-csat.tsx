// /csat/:token: the customer's rating of a resolved conversation (decision 075),
// without signing in. A score from 1 to 5 (the mail's link may choose one
// already: ?score=4) and an optional comment, sent by a plain form, so it works
// without JavaScript. Opening the page changes nothing (mail scanners open
// links); only the button answers, once per conversation. The database hashes
// the token and counts its uses (30 in 10 minutes); the per-IP window is the
// Worker's rate limiting binding, as for the quote links. Never cached or indexed.
import { data, Form, redirect, useSearchParams } from 'react-router';
import { env } from 'cloudflare:workers';
import type { Route } from './+types/public-csat';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '~/components/ui/card';
import { Textarea } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { ALTERED_FORM_MESSAGE, readFormData } from '~/lib/forms.server';
import { getRequestSupabase } from '~/lib/supabase.server';

type State = 'open' | 'answered' | 'not_found' | 'rate_limited' | 'unavailable';
interface CsatView {
  state: State;
  account_name?: string;
  subject?: string;
  score?: number | null;
  answered_now?: boolean;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const IP_WINDOW_SECONDS = 60;
const HEADERS = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex, nofollow' };
const STATUS: Record<State, number> = { open: 200, answered: 200, not_found: 404, rate_limited: 429, unavailable: 503 };
export const SCORES = [
  { value: 5, label: 'Very satisfied' },
  { value: 4, label: 'Satisfied' },
  { value: 3, label: 'Neutral' },
  { value: 2, label: 'Dissatisfied' },
  { value: 1, label: 'Very dissatisfied' },
] as const;

export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const merged = new Headers(HEADERS);
  const retry = actionHeaders.get('Retry-After') ?? loaderHeaders.get('Retry-After');
  if (retry) merged.set('Retry-After', retry);
  return merged;
};

export const meta: Route.MetaFunction = () => [{ title: 'How did we do?' }, { name: 'robots', content: 'noindex, nofollow' }];

async function ipAllowed(request: Request): Promise<boolean> {
  const ip = request.headers.get('CF-Connecting-IP');
  if (!ip) return true;
  return (await env.QUOTE_LINK_IP_LIMITER.limit({ key: `csat-link:${ip}` })).success;
}

function answer(view: CsatView, extra: Record<string, unknown> = {}, status?: number) {
  const headers: Record<string, string> = { ...HEADERS };
  if (view.state === 'rate_limited') headers['Retry-After'] = String(IP_WINDOW_SECONDS);
  return data({ view, ...extra }, { status: status ?? STATUS[view.state], headers });
}

async function call(request: Request, context: Route.LoaderArgs['context'], token: string, fn: 'open' | 'answer', args: Record<string, unknown> = {}) {
  if (!TOKEN.test(token)) return { state: 'not_found' } as CsatView;
  if (!(await ipAllowed(request))) return { state: 'rate_limited' } as CsatView;
  const { supabase } = getRequestSupabase(context);
  const { data: view, error } =
    fn === 'open'
      ? await supabase.rpc('open_csat_link', { p_token: token })
      : await supabase.rpc('answer_csat', { p_token: token, p_score: args.score as number, p_comment: (args.comment as string) || undefined });
  if (error?.code === '22023') return { state: 'open', error: error.message } as CsatView & { error: string };
  if (error) {
    console.error(`csat link: ${fn} failed: ${error.message}`);
    return { state: 'unavailable' } as CsatView;
  }
  return view as unknown as CsatView;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return answer(await call(request, context, params.token, 'open'));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  // Each field once and as text: a form sent twice over, or with a file, was made by hand.
  if ([...new Set(form.keys())].some((name) => form.getAll(name).length > 1)) {
    const opened = await call(request, context, params.token, 'open');
    return answer(opened, { error: ALTERED_FORM_MESSAGE, comment: '' }, opened.state === 'open' ? 400 : undefined);
  }
  const rawScore = form.get('score');
  const comment = form.get('comment');
  const score = typeof rawScore === 'string' && /^[1-5]$/.test(rawScore) ? Number(rawScore) : null;
  const typed = typeof comment === 'string' ? comment.slice(0, 4000) : '';
  if (score === null || (comment !== null && typeof comment !== 'string')) {
    const opened = await call(request, context, params.token, 'open');
    return answer(opened, { error: 'Choose a score from 1 to 5', comment: typed }, opened.state === 'open' ? 400 : undefined);
  }
  if (typed.length > 2000) {
    const opened = await call(request, context, params.token, 'open');
    return answer(opened, { error: 'A comment can be at most 2,000 characters', comment: typed }, opened.state === 'open' ? 400 : undefined);
  }
  const view = await call(request, context, params.token, 'answer', { score, comment: typed });
  if (view.answered_now) throw redirect(`/csat/${params.token}`, { status: 303, headers: HEADERS });
  const error = 'error' in view ? (view as { error: string }).error : undefined;
  // Answered before: this one changed nothing (409), the first answer stands.
  return answer(view, { error, comment: typed }, view.state === 'answered' ? 409 : error ? 400 : undefined);
}

export default function PublicCsat({ loaderData, actionData }: Route.ComponentProps) {
  const view = (actionData?.view ?? loaderData.view) as CsatView;
  const extra = (actionData ?? {}) as { error?: string; comment?: string };
  return (
    <main className="mx-auto grid max-w-lg gap-6 px-4 py-10">
      <Body view={view} error={extra.error} comment={extra.comment} repeated={Boolean(actionData) && view.state === 'answered'} />
    </main>
  );
}

function Body({ view, error, comment, repeated }: { view: CsatView; error?: string; comment?: string; repeated: boolean }) {
  if (view.state === 'not_found') return <Message title="Link not found" text="This rating link is not valid. Please use the link from your email." alert />;
  if (view.state === 'rate_limited') return <Message title="Too many requests" text="Please wait a minute and try again." alert />;
  if (view.state === 'unavailable') return <Message title="Rating unavailable" text="Please try again in a moment." alert />;
  if (view.state === 'answered') {
    return (
      <Message
        title="Thank you for your feedback"
        text={`${repeated ? 'You had already rated this conversation. ' : ''}Your rating: ${view.score ?? ''} of 5.`}
        alert={repeated}
      />
    );
  }
  return <RatingForm view={view} error={error} comment={comment} />;
}

function RatingForm({ view, error, comment }: { view: CsatView; error?: string; comment?: string }) {
  const [params] = useSearchParams();
  const chosen = params.get('score');
  return (
    <Card>
      <CardHeader>
        <h1 className="text-xl font-semibold">How did we do?</h1>
        <CardDescription>
          {view.account_name ? `${view.account_name} · ` : ''}
          {view.subject || '(no subject)'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4">
          <fieldset className="grid gap-2" aria-describedby={error ? 'csat-error' : undefined}>
            <legend className="mb-1 text-sm font-medium">Your rating</legend>
            {SCORES.map((s) => (
              <label key={s.value} className="flex items-center gap-2 text-sm">
                <input type="radio" name="score" value={s.value} required defaultChecked={chosen === String(s.value)} className="size-4" />
                {s.value} · {s.label}
              </label>
            ))}
          </fieldset>
          <div className="grid gap-1">
            <Label htmlFor="csat-comment">Comment (optional)</Label>
            <Textarea id="csat-comment" name="comment" rows={4} maxLength={2000} defaultValue={comment ?? ''} />
          </div>
          {error ? (
            <div id="csat-error" role="alert" className="text-sm text-destructive">
              <p>{error}</p>
            </div>
          ) : null}
          <Button type="submit">Send rating</Button>
        </Form>
      </CardContent>
    </Card>
  );
}

/** A state's message; `alert` when it answers a refused or repeated rating (read out, marked as the page's error). */
function Message({ title, text, alert = false }: { title: string; text: string; alert?: boolean }) {
  return (
    <Card>
      <CardHeader>
        <h1 className="text-xl font-semibold">{title}</h1>
        {alert ? (
          <div id="csat-state-error" role="alert" className="text-sm text-muted-foreground">
            <p>{text}</p>
          </div>
        ) : text ? (
          <CardDescription>{text}</CardDescription>
        ) : null}
      </CardHeader>
    </Card>
  );
}
