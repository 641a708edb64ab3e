// /rpc/<fn>: picks the function (by name and argument names, as PostgREST does
// for overloads), and renders the call with its arguments turned into typed
// values by json_to_record, from the JSON body (POST) or the query string (GET).
import { RestError } from './errors.ts';
import type { DbFunction, Relation, SchemaCache } from './schema-cache.ts';
import { type Params, qualified, quoteIdent } from './sql.ts';

export interface RpcCall {
  fn: DbFunction;
  /** `from` items that make the arguments available, e.g. `json_to_record($1::json) as "_pgrst_args"(...)`. */
  argsFrom: string | null;
  /** `"public"."fn"("a" := "_pgrst_args"."a")` */
  call: string;
  /** The resource whose columns can be selected, filtered and embedded from. */
  relation: Relation | null;
}

const ARGS = quoteIdent('_pgrst_args');

/** How a POST body reached us: JSON, or raw text/xml/bytes for a function of one unnamed parameter. */
export type BodyKind = 'json' | 'text' | 'xml' | 'binary';

/** The parameter type PostgREST passes each raw body kind to (findProc's hasSingleUnnamedParam). */
const UNNAMED_TYPES: Record<BodyKind, string[]> = { json: ['json', 'jsonb'], text: ['text'], xml: ['xml'], binary: ['bytea'] };
const RAW_NAMES: Record<BodyKind, string> = { json: 'json/jsonb', text: 'text', xml: 'xml', binary: 'bytea' };

function notFound(schema: string, name: string, keys: string[], isPost: boolean, body: BodyKind): RestError {
  const params = keys.length > 0 ? `(${keys.join(', ')})` : ' without parameters';
  const raw = isPost && body !== 'json';
  const searched = raw
    ? ` with a single unnamed ${RAW_NAMES[body]} parameter`
    : `${keys.length > 0 ? ` with parameters ${keys.join(', ')}` : ' without parameters'}${isPost ? ' or with a single unnamed json/jsonb parameter' : ''}`;
  return new RestError(404, 'PGRST202', `Could not find the function ${schema}.${name}${raw ? '' : params} in the schema cache`, {
    details: `Searched for the function ${schema}.${name}${searched}, but no matches were found in the schema cache.`,
    hint: null,
    schemaMiss: true,
  });
}

/** A function of one unnamed parameter takes the whole body of a POST of a matching type. */
const takesWholeBody = (fn: DbFunction, isPost: boolean, body: BodyKind) =>
  isPost && fn.args.length === 1 && fn.args[0].name === '' && UNNAMED_TYPES[body].includes(fn.args[0].type);

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/** PostgREST's matchesParams: every required parameter given, the rest optional ones, nothing else. */
function matchesKeys(fn: DbFunction, keys: Set<string>, isPost: boolean, body: BodyKind): boolean {
  if (fn.args.length === 0) return keys.size === 0 && !(isPost && body !== 'json');
  const required = new Set(fn.args.filter((a) => !a.hasDefault).map((a) => a.name));
  const optional = new Set(fn.args.filter((a) => a.hasDefault).map((a) => a.name));
  return sameSet(new Set([...keys].filter((k) => !optional.has(k))), required);
}

const ambiguous = (schema: string, fns: DbFunction[]) =>
  new RestError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${fns.map((f) => `${schema}.${f.name}(${f.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ')}`,
    { hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved' },
  );

/**
 * Which function `name` with these argument names means (PostgREST's findProc):
 * overloads are told apart by their parameter names; only when none fits does
 * a function of one unnamed parameter take the whole body.
 */
export function chooseFunction(
  cache: SchemaCache,
  name: string,
  keys: string[],
  isPost: boolean,
  body: BodyKind = 'json',
): { fn: DbFunction; wholeBody: boolean } {
  const overloads = cache.functions.get(name) ?? [];
  const given = new Set(keys);
  const fits = overloads.filter((fn) => matchesKeys(fn, given, isPost, body));
  if (fits.length === 1) return { fn: fits[0], wholeBody: takesWholeBody(fits[0], isPost, body) };
  if (fits.length > 1) throw ambiguous(cache.schema, fits);
  const whole = overloads.filter((fn) => takesWholeBody(fn, isPost, body));
  if (whole.length === 1) return { fn: whole[0], wholeBody: true };
  if (whole.length > 1) throw ambiguous(cache.schema, whole);
  throw notFound(cache.schema, name, keys, isPost, body);
}

/** Argument names the query string of a GET call supplies (the rest are filters). */
export function argumentKeys(cache: SchemaCache, name: string, query: [string, string][]): string[] {
  const names = new Set((cache.functions.get(name) ?? []).flatMap((fn) => fn.args.map((a) => a.name)));
  return query.map(([k]) => k).filter((k) => names.has(k));
}

export function renderCall(
  cache: SchemaCache,
  fn: DbFunction,
  wholeBody: boolean,
  argsJson: string,
  keys: string[],
  params: Params,
): RpcCall {
  const target = qualified(cache.schema, fn.name);
  let argsFrom: string | null = null;
  let call: string;
  // Positional: an unnamed parameter has no name to pass it by.
  if (wholeBody) call = `${target}(${params.add(argsJson)}::${fn.args[0].type})`;
  else {
    const used = fn.args.filter((a) => keys.includes(a.name));
    if (used.length > 0) {
      const columns = used.map((a) => `${quoteIdent(a.name)} ${a.type}`).join(', ');
      argsFrom = `json_to_record(${params.add(argsJson)}::json) as ${ARGS}(${columns})`;
    }
    const named = used.map((a) => `${a.variadic ? 'variadic ' : ''}${quoteIdent(a.name)} := ${ARGS}.${quoteIdent(a.name)}`);
    call = `${target}(${named.join(', ')})`;
  }
  let relation: Relation | null = null;
  if (fn.returnRelation) relation = cache.relations.get(fn.returnRelation) ?? null;
  else if (fn.returnColumns) {
    relation = {
      schema: cache.schema,
      name: fn.name,
      kind: 'view',
      columns: new Map(fn.returnColumns.map((c) => [c.name, c])),
      primaryKey: [],
      uniqueKeys: [],
      computed: new Map(),
    };
  }
  return { fn, argsFrom, call, relation };
}
