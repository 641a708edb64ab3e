// The answer library's search box: a GET form, so it works without JavaScript,
// on the library's own page (?q=) and on a bid's page (?answers=).
import { Form } from 'react-router';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { ANSWER_TEXTS as TEXTS } from './texts';

export function AnswerSearch({ id, name, q, action, className }: { id: string; name: string; q: string; action?: string; className: string }) {
  return (
    <Form method="get" action={action} role="search" className={className}>
      <div className="grid flex-1 gap-1">
        <Label htmlFor={id}>{TEXTS.searchLabel}</Label>
        <Input id={id} name={name} type="search" defaultValue={q} maxLength={100} />
      </div>
      <Button type="submit" variant="outline">Search</Button>
    </Form>
  );
}
