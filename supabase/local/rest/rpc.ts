// /rpc/<fn>: picks the function (by name and argument names, as PostgREST does
// for overloads), and renders the call with its arguments turned into typed
// values by json_to_record, from the JSON body (POST) or the query string (GET).
import { RestError } from './errors.ts';
import type { DbFunction, Relation, SchemaCache } from './schema-cache.ts';
import { type Params, quoteIdent } from './sql.ts';

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

function notFound(name: string, keys: string[]): RestError {
  const described = keys.length > 0 ? `with parameters ${keys.join(', ')}` : 'without parameters';
  return new RestError(404, 'PGRST202', `Could not find the function public.${name}(${keys.join(', ')}) in the schema cache`, {
    details: `Searched for the function public.${name} ${described}, but no matches were found in the schema cache.`,
    hint: null,
    schemaMiss: true,
  });
}

const singleJsonArg = (fn: DbFunction) =>
  fn.args.length === 1 && fn.args[0].name === '' && (fn.args[0].type === 'json' || fn.args[0].type === 'jsonb');

/** Which function `name` with these argument names means. */
export function chooseFunction(cache: SchemaCache, name: string, keys: string[], isPost: boolean): { fn: DbFunction; wholeBody: boolean } {
  const overloads = cache.functions.get(name) ?? [];
  const fits = overloads.filter((fn) => {
    const names = fn.args.map((a) => a.name);
    return keys.every((k) => names.includes(k)) && fn.args.every((a) => a.hasDefault || keys.includes(a.name));
  });
  if (fits.length === 1) return { fn: fits[0], wholeBody: false };
  if (fits.length === 0 && isPost) {
    const json = overloads.filter(singleJsonArg);
    if (json.length === 1) return { fn: json[0], wholeBody: true };
  }
  if (fits.length === 0) throw notFound(name, keys);
  throw new RestError(300, 'PGRST203', `Could not choose the best candidate function between: ${fits.map((f) => `public.${f.name}(${f.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ')}`, {
    hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  });
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
  const target = `${quoteIdent('public')}.${quoteIdent(fn.name)}`;
  let argsFrom: string | null = null;
  let call: string;
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
      name: fn.name,
      kind: 'view',
      columns: new Map(fn.returnColumns.map((c) => [c.name, c])),
      primaryKey: [],
      uniqueKeys: [],
    };
  }
  return { fn, argsFrom, call, relation };
}
