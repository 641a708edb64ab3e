// The answer library on a bid's page (issue 38; decision 091): a search (a GET form, ?answers=, so it works
// without JavaScript and keeps the page's other state), each answer found with its text to copy and, for
// writers, "Add to proposal", which appends it to the bid's proposal (the bid's response text) on the server.
import { Form, Link } from 'react-router';
import { SectionHeading } from '~/components/page-header';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { AnswerSearch } from './answer-search';
import type { AnswerRow } from './queries.server';
import { ANSWER_TEXTS as TEXTS } from './texts';

export function AnswerPicker({ page, q, answers, failed, canWrite }: {
  page: string; q: string; answers: Pick<AnswerRow, 'id' | 'title' | 'body' | 'tags'>[]; failed: boolean; canWrite: boolean;
}) {
  const here = q ? `${page}?answers=${encodeURIComponent(q)}` : page;
  return (
    <Card>
      <CardHeader>
        <SectionHeading>{TEXTS.pickerHeading}</SectionHeading>
        <p className="text-sm text-muted-foreground">
          {TEXTS.pickerHint} <Link to="/rfp/answers" className="underline underline-offset-2">Manage the library</Link>
        </p>
      </CardHeader>
      <CardContent className="grid gap-4">
        <AnswerSearch id="bid-answers-q" name="answers" q={q} action={page} className="flex items-end gap-2" />
        {failed ? <p className="text-sm text-destructive">{TEXTS.loadFailed}</p> : null}
        {q && !failed && answers.length === 0 ? <p className="text-sm text-muted-foreground">{TEXTS.noMatch}</p> : null}
        {answers.length > 0 ? (
          <ul className="grid gap-3" aria-label="Answers found">
            {answers.map((a) => (
              <li key={a.id} className="grid gap-2 rounded-md border p-3">
                <p className="font-medium">{a.title}</p>
                {a.tags.length > 0 ? <p className="text-xs text-muted-foreground">{a.tags.join(', ')}</p> : null}
                <p className="max-h-40 overflow-auto whitespace-pre-wrap text-sm [overflow-wrap:anywhere]">{a.body}</p>
                {canWrite ? (
                  <Form method="post" action={here}>
                    <input type="hidden" name="intent" value="use-answer" />
                    <input type="hidden" name="answer_id" value={a.id} />
                    <Button type="submit" size="sm" variant="outline">{TEXTS.use}<span className="sr-only">: {a.title}</span></Button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}
