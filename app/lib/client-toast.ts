// A toast raised in the browser: a form that JavaScript refuses before it is
// posted (Conform validates it in the page) says what the server would have
// said, so the toasts docs/product-guide.md lists ('Password Mismatch', 'Please
// select a file to upload') show with JavaScript as without. FlashToast
// shows whichever came last, this or the server's.
import { useSyncExternalStore, type FormEvent } from 'react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ToastMessage } from 'remix-toast';
import type { z } from 'zod';

let current: ToastMessage | undefined;
const listeners = new Set<() => void>();

export function showClientToast(toast: { message: string; description?: string }, type: ToastMessage['type'] = 'error') {
  // A new object each time: the same refusal twice shows the toast twice.
  current = { type, message: toast.message, description: toast.description };
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useClientToast(): ToastMessage | undefined {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => undefined,
  );
}

type ToastText = string | { message: string; description?: string } | undefined;

/**
 * A Conform form's props whose submit, when refused in the page, also shows
 * the toast the server gives the same refusal (`toastFor`, shared with the action).
 */
export function withRefusalToast<Props extends { onSubmit: (event: FormEvent<HTMLFormElement>) => void }>(
  props: Props,
  schema: z.ZodType,
  toastFor: (errors: Record<string, string[] | null | undefined>) => ToastText,
): Props {
  return {
    ...props,
    onSubmit: (event: FormEvent<HTMLFormElement>) => {
      props.onSubmit(event);
      if (!event.defaultPrevented) return;
      const submission = parseWithZod(new FormData(event.currentTarget), { schema });
      if (submission.status === 'success') return;
      const toast = toastFor(submission.error ?? {});
      if (toast) showClientToast(typeof toast === 'string' ? { message: toast } : toast);
    },
  };
}
