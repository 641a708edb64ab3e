// Telling Postgres errors apart, whether they come from pg or PGlite.

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

export function isDatabaseError(error: unknown): boolean {
  const state = sqlState(error);
  return state !== undefined && /^[0-9A-Z]{5}$/.test(state);
}
