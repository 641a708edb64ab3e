// PostgREST's error shape ({code, message, details, hint}) and its mapping of
// Postgres error codes to HTTP statuses.

export interface ErrorBody {
  code: string;
  message: string;
  /** A string, or structured JSON where PostgREST sends it (PGRST201's relationships). */
  details: unknown;
  hint: string | null;
}

export class RestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  readonly hint: string | null;
  /** True when the schema cache may be stale: reload it and try once more. */
  readonly schemaMiss: boolean;

  constructor(
    status: number,
    code: string,
    message: string,
    extra: { details?: unknown; hint?: string | null; schemaMiss?: boolean } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = extra.details ?? null;
    this.hint = extra.hint ?? null;
    this.schemaMiss = extra.schemaMiss ?? false;
  }

  body(): ErrorBody {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

export const parseError = (what: string, details?: string) =>
  new RestError(400, 'PGRST100', `failed to parse ${what}`, { details: details ?? null });

export const unknownColumn = (table: string, column: string) =>
  new RestError(400, '42703', `column ${table}.${column} does not exist`, { schemaMiss: true });

/** Postgres error → HTTP status, as PostgREST maps them. */
export function statusForPgCode(code: string, authenticated: boolean): number {
  if (/^PT\d{3}$/.test(code)) return Number(code.slice(2));
  const exact: Record<string, number> = {
    '23503': 409,
    '23505': 409,
    '25006': 405,
    '42883': 404,
    '42P01': 404,
    '42P17': 500,
    P0001: 400,
    '42501': authenticated ? 403 : 401,
  };
  if (exact[code]) return exact[code];
  const byClass: [string, number][] = [
    ['08', 503],
    ['09', 500],
    ['0L', 403],
    ['0P', 403],
    ['25', 500],
    ['28', 403],
    ['2D', 500],
    ['38', 500],
    ['39', 500],
    ['3B', 500],
    ['40', 500],
    ['53', 503],
    ['54', 500],
    ['55', 500],
    ['57', 500],
    ['58', 500],
    ['F0', 500],
    ['HV', 500],
    ['P0', 500],
    ['XX', 500],
  ];
  for (const [prefix, status] of byClass) if (code.startsWith(prefix)) return status;
  return 400;
}

interface PgLikeError {
  code?: string;
  message?: string;
  detail?: string;
  hint?: string;
}

export function isPgError(error: unknown): error is PgLikeError & Error {
  return error instanceof Error && typeof (error as PgLikeError).code === 'string' && /^[0-9A-Z]{5}$/.test((error as PgLikeError).code!);
}

export function fromPgError(error: PgLikeError, authenticated: boolean): RestError {
  const code = error.code ?? 'XX000';
  return new RestError(statusForPgCode(code, authenticated), code, error.message ?? 'database error', {
    details: error.detail ?? null,
    hint: error.hint ?? null,
  });
}

export function errorResponse(error: RestError, extraHeaders: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(error.body()), {
    status: error.status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...extraHeaders },
  });
}
