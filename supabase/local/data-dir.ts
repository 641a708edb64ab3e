// The folder a persistent local backend keeps its database in (.data/pglite by
// default). Everything a newcomer can trip over on the first run is turned into
// a sentence that says what to do, instead of a stack trace: a folder that does
// not exist yet (PGlite creates only the last level), one that cannot be
// written, and one written by an incompatible version of PGlite.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { findPackageJSON } from 'node:module';

/** A problem with the local set-up that the person running it can fix; printed without a stack. */
export class LocalSetupError extends Error {
  override name = 'LocalSetupError';
}

/** What `npm start -- --fresh` means, for the messages below. */
export const FRESH_HINT = 'npm start -- --fresh';

const FORMAT_FILE = 'ops-hub-format.json';

interface DataFormat {
  pglite: string;
}

/** PGlite's on-disk format may change with its minor version while it is 0.x (its major otherwise). */
export function pgliteVersion(): string {
  const packageJson = findPackageJSON('@electric-sql/pglite', import.meta.url)!;
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

function formatLine(version: string): string {
  const [major, minor] = version.split('.');
  return major === '0' ? `0.${minor}` : major;
}

const shown = (dir: string) => relative(process.cwd(), dir) || dir;

/**
 * Makes `dir` ready for PGlite: removed first when `fresh`, created with its
 * parents, checked writable, and checked to hold data this PGlite can read.
 */
export function prepareDataDir(dir: string, options: { fresh?: boolean; freshHint?: string } = {}): void {
  const freshHint = options.freshHint ?? FRESH_HINT;
  if (options.fresh) rmSync(dir, { recursive: true, force: true });
  try {
    mkdirSync(dir, { recursive: true });
    // A real write is the test: access() says yes to root whatever the mode.
    const probe = join(dir, '.write-probe');
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new LocalSetupError(
      `The data folder ${shown(dir)} is not writable (${code}). Make ${shown(dirname(dir))} writable by this user, ` +
        'or set PGLITE_DATA_DIR to a folder that is.',
    );
  }

  const current = pgliteVersion();
  const formatFile = join(dir, FORMAT_FILE);
  if (existsSync(formatFile)) {
    let made: DataFormat | undefined;
    try {
      made = JSON.parse(readFileSync(formatFile, 'utf8')) as DataFormat;
    } catch {
      made = undefined;
    }
    if (!made?.pglite || formatLine(made.pglite) !== formatLine(current)) {
      throw new LocalSetupError(
        `The data folder ${shown(dir)} was made by an incompatible version (PGlite ${made?.pglite ?? 'unknown'}; ` +
          `this checkout uses PGlite ${current}). Start again from fresh demo data with: ${freshHint} ` +
          `(this deletes ${shown(dir)}).`,
      );
    }
  }
}

/** Marks `dir` as written by this PGlite, once it has opened it successfully. */
export function recordDataFormat(dir: string): void {
  const formatFile = join(dir, FORMAT_FILE);
  const format: DataFormat = { pglite: pgliteVersion() };
  writeFileSync(formatFile, `${JSON.stringify(format)}\n`);
}

/** An error from opening or migrating an existing data folder, said as something to do. */
export function unreadableDataDir(dir: string, error: unknown, freshHint = FRESH_HINT): LocalSetupError {
  return new LocalSetupError(
    `The data folder ${shown(dir)} could not be used: ${(error as Error).message}\n` +
      `It was probably made by an incompatible version of the app. Start again from fresh demo data with: ${freshHint} ` +
      `(this deletes ${shown(dir)}).`,
  );
}
