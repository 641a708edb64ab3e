// What an error page says: the status and one sentence, the same inside the
// signed-in shell (routes/screen-error-boundary.tsx) and on the bare document
// (root.tsx), so that a person and a test read one wording.
import { isRouteErrorResponse } from 'react-router';

export const ERROR_TITLE = 'Unexpected Application Error!';

export function errorSummary(error: unknown): { status: number; detail: string } {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error) ? (error.data as { error?: string } | null)?.error : undefined;
  const detail =
    message ??
    (status === 404
      ? 'The page you asked for does not exist.'
      : status < 500
        ? 'This request could not be handled.'
        : 'Something went wrong on our side. Please try again in a moment.');
  return { status, detail };
}
