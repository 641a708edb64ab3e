// Responses in GoTrue's shapes. Errors carry GoTrue's legacy error body
// ({ code: <status>, error_code, msg }), which auth-js reads via `msg` and
// `error_code`.

export class AuthError extends Error {
  readonly status: number;
  readonly errorCode: string;
  /** Extra top-level fields of the error body (e.g. weak_password). */
  readonly extra: Record<string, unknown>;

  constructor(status: number, errorCode: string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.errorCode = errorCode;
    this.extra = extra;
  }
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message);
export const unprocessable = (code: string, message: string) => new AuthError(422, code, message);
export const forbidden = (code: string, message: string) => new AuthError(403, code, message);
export const notFound = (code: string, message: string) => new AuthError(404, code, message);

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

export function errorResponse(error: AuthError): Response {
  return json({ code: error.status, error_code: error.errorCode, msg: error.message, ...error.extra }, error.status);
}

/** GoTrue answers browser-facing links (verify) with a 303 to the app. */
export function redirect(location: string): Response {
  return new Response(null, { status: 303, headers: { location } });
}

/** The JSON body of a request as an object; GoTrue rejects anything else with 400. */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('bad_json', 'Could not parse request body as JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('bad_json', 'Could not parse request body as JSON');
  }
  return parsed as Record<string, unknown>;
}

export function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest('validation_failed', `${key} must be a string`);
  return value;
}

export function optionalObject(body: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('validation_failed', `${key} must be an object`);
  }
  return value as Record<string, unknown>;
}
