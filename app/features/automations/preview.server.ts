// 'Preview schedule' of the New Automation and edit dialogs (decision 080):
// the typed schedule's next five runs in the account's timezone, nothing
// saved, everything typed kept (the reply carries the form's values back).
import { parseWithZod } from '@conform-to/zod/v4';
import type { RouterContextProvider } from 'react-router';
import { requireUserWith } from '~/lib/auth.server';
import { readFormData } from '~/lib/forms.server';
import { z } from '~/lib/schemas/zod';
import { previewSchedule } from './schema.server';

/** A run time as the account reads it: in its timezone. */
function inZone(iso: string, timezone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' }).format(new Date(iso));
}

/** The preview's answer when the post is one (its button pressed), else null: the request's body is left unread. */
export async function answerPreview(args: { request: Request; context: Readonly<RouterContextProvider> }) {
  const form = await readFormData(args.request.clone() as unknown as Request);
  if (form.get('preview') !== 'schedule') return null;
  const [, timezone] = await requireUserWith(args.request, args.context, (supabase) =>
    supabase.from('accounts').select('timezone').maybeSingle().then(({ data }) => data?.timezone || 'UTC'),
  );
  const preview = previewSchedule(form, timezone);
  return {
    result: parseWithZod(form, { schema: z.object({}) }).reply(),
    preview: { ...preview, runs: preview.runs.map((at) => inZone(at, timezone)), timezone },
  };
}
