// Which schemas the REST API serves: `[api] schemas` of supabase/config.toml,
// as the Supabase CLI and the hosted dashboard configure PostgREST's
// db-schemas. The first is the default one.
import { existsSync, readFileSync } from 'node:fs';

export const DEFAULT_EXPOSED_SCHEMAS = ['public'];

/** The `schemas = [...]` line of the `[api]` section, or public when absent. */
export function readExposedSchemas(configFile: string): string[] {
  if (!existsSync(configFile)) return DEFAULT_EXPOSED_SCHEMAS;
  const section = readFileSync(configFile, 'utf8').split(/^\[/m).find((s) => s.startsWith('api]'));
  const list = section && /^\s*schemas\s*=\s*\[([^\]]*)\]/m.exec(section);
  if (!list) return DEFAULT_EXPOSED_SCHEMAS;
  const schemas = [...list[1].matchAll(/"([^"]+)"|'([^']+)'/g)].map((m) => m[1] ?? m[2]);
  return schemas.length > 0 ? schemas : DEFAULT_EXPOSED_SCHEMAS;
}
