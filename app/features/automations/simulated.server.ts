// Runs a demonstration screen's create form end to end: validate on the
// server (always), wait as the spec says, then redirect back to the list with
// the success toast, or answer 400 with the field errors.
import { env } from 'cloudflare:workers';
import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { RouterContextProvider } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { z } from 'zod';
import { SIMULATED_ACTIONS, type SimulatedAction } from './simulated';
import { requireUser } from '~/lib/auth.server';
import { readFormData } from '~/lib/forms.server';
import { refuseSubmission } from '~/lib/records.server';
import { dataWithError } from '~/lib/toast.server';

/**
 * The wait of a simulated save. The spec's delay, unless the Worker has a
 * SIMULATED_DELAY_MS binding (set by the test setups only, so test runs stay
 * fast); a blank or invalid binding means the spec's delay.
 */
export function simulatedDelayMs(action: SimulatedAction): number {
  const override = (env as unknown as Record<string, unknown>).SIMULATED_DELAY_MS;
  if (typeof override === 'string' && /^\d+$/.test(override.trim())) return Number(override);
  return SIMULATED_ACTIONS[action].delayMs;
}

/** Waits `ms`, or rejects when the visitor goes away first (the save then fails). */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface ActionArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

export interface SimulatedCreate<Schema extends z.ZodType> {
  action: SimulatedAction;
  schema: Schema;
  /** The list page the dialog belongs to; success lands there, dialog closed. */
  listPath: string;
  /** Overrides the action's success text (the message screen names the channel). */
  successText?: (value: z.output<Schema>) => string;
  /** Reads the form; an upload reads its own, with a bigger limit, or answers by itself. */
  readForm?: (request: Request) => Promise<FormRead>;
  /** A toast to show beside the field errors, for the errors the spec lists as toasts. */
  invalidToast?: (errors: Record<string, string[] | null>) => string | undefined;
  /** Fields never echoed back (a file cannot be). */
  hideFields?: string[];
}

/** A form as read: its data, or a refusal before any field could be parsed (an oversized upload). */
export type FormRead = { formData: FormData } | { rejected: SubmissionResult<string[]>; status: number };

export type SimulatedCreateData = { result: SubmissionResult<string[]> };

export async function simulatedCreate<Schema extends z.ZodType>(
  args: ActionArgs,
  options: SimulatedCreate<Schema>,
) {
  // The layout's loader guards the page; an action runs without it, so it guards itself.
  await requireUser(args.request, args.context);
  const texts = SIMULATED_ACTIONS[options.action];
  const read: FormRead = options.readForm
    ? await options.readForm(args.request)
    : { formData: await readFormData(args.request) };
  if ('rejected' in read) {
    return dataWithError<SimulatedCreateData>(args, { result: read.rejected }, texts.failure, { status: read.status });
  }
  const { formData } = read;
  const submission = parseWithZod(formData, { schema: options.schema });
  const replyOptions = options.hideFields ? { hideFields: options.hideFields } : undefined;
  if (submission.status !== 'success') {
    return refuseSubmission(args, submission, { toast: options.invalidToast, hideFields: options.hideFields });
  }
  try {
    await wait(simulatedDelayMs(options.action), args.request.signal);
  } catch {
    return dataWithError<SimulatedCreateData>(args, { result: submission.reply(replyOptions) }, texts.failure, {
      status: 500,
    });
  }
  const success = options.successText?.(submission.value) ?? ('success' in texts ? texts.success : '');
  return redirectWithSuccess(options.listPath, success);
}
