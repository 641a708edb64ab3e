// Hostile input on sign-in, sign-up, sign-out, invitation acceptance and the
// sidebar toggle; and the check that the action table misses no action.
import { describe, expect, it } from 'vitest';
import { ALL_ACTIONS, PUBLIC_ACTIONS } from './hostile-actions';
import { describeHostile } from './support/hostile-runner';

// Read at build time, so a new route module or a new intent is seen without anyone listing it.
// Route modules live in app/routes (the public pages and the shell) and in app/features/<name>/ (every other screen, some in a folder of their own).
const ROUTE_SOURCES = import.meta.glob<string>(['../../app/routes/**/*.{ts,tsx}', '../../app/features/**/*.{ts,tsx}'], { query: '?raw', import: 'default', eager: true });
const SCHEMA_SOURCES = import.meta.glob<string>(['../../app/lib/schemas/*.ts', '../../app/features/**/schema.ts'], { query: '?raw', import: 'default', eager: true });
const ROUTE_TABLE = import.meta.glob<string>('../../app/routes.ts', { query: '?raw', import: 'default', eager: true });

const routeName = (path: string) => path.replace('../../app/', '');
/** A module answers a POST: it exports an action, or a middleware of it looks at POSTs. */
const ANSWERS_POST = /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b|export\s*\{[^}]*\baction\b[^}]*\}|method\s*===\s*'POST'/;

describe('the hostile-input table', () => {
  it('lists every route module that answers a POST', () => {
    const answering = Object.entries(ROUTE_SOURCES)
      .filter(([, source]) => ANSWERS_POST.test(source))
      .map(([path]) => routeName(path));
    expect(answering.length).toBeGreaterThan(15);
    const listed = new Set(ALL_ACTIONS.map((action) => action.route));
    expect(answering.filter((route) => !listed.has(route))).toEqual([]);
  });

  it('reads every module the route table names', () => {
    const table = Object.values(ROUTE_TABLE)[0];
    const named = [...table.matchAll(/'((?:routes|features)\/[^']+)'/g)].map(([, file]) => file);
    const read = new Set(Object.keys(ROUTE_SOURCES).map(routeName));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((file) => !read.has(file))).toEqual([]);
  });

  /** Of a feature's ./schema, the exported definitions this route imports (a list route imports its create form's, not the record page's). */
  function importedSchemas(source: string, schema: string): string {
    const names = (/import \{([^}]*)\} from '\.\/schema'/.exec(source)?.[1] ?? '').split(',').map((name) => name.trim().replace(/^type\s+/, ''));
    return names.map((name) => new RegExp(`export const ${name}\\b[\\s\\S]*?(?=\\nexport |$)`).exec(schema)?.[0] ?? '').join('\n');
  }

  it('lists every intent of every action', () => {
    const missing: string[] = [];
    for (const [path, source] of Object.entries(ROUTE_SOURCES)) {
      if (!ANSWERS_POST.test(source) || !/\bintent\b/.test(source)) continue;
      const route = routeName(path);
      // The intents the action can be sent: the literals of the schemas it imports.
      // (A feature's route imports its own ./schema.)
      const schemas = [
        ...[...source.matchAll(/from '~\/lib\/schemas\/([\w-]+)'/g)].map(([, name]) => SCHEMA_SOURCES[`../../app/lib/schemas/${name}.ts`] ?? ''),
        ...(/from '\.\/schema'/.test(source) ? [importedSchemas(source, SCHEMA_SOURCES[path.replace(/[^/]+$/, 'schema.ts')] ?? '')] : []),
      ];
      const intents = new Set(schemas.flatMap((schema) => [...schema.matchAll(/intent:\s*z\.literal\('([^']+)'\)/g)].map(([, intent]) => intent)));
      const listed = new Set(ALL_ACTIONS.filter((action) => action.route === route).map((action) => action.intent));
      for (const intent of intents) if (!listed.has(intent)) missing.push(`${route}: ${intent}`);
    }
    expect(missing).toEqual([]);
  });
});

describeHostile('public forms and the sidebar', PUBLIC_ACTIONS);
