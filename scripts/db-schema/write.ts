// Lays the migrations' objects out as schema files: one per feature
// (features.ts), each table followed by its keys, indexes, grants, functions,
// triggers and policies, every object after what it needs (so the files apply
// in order on a database with only the bootstrap), and the comments people
// wrote above a statement kept when the files are written again.
import type { DbObject, Kind } from './catalogue.ts';
import { FEATURES, UNSORTED } from './features.ts';

export interface SchemaFile {
  feature: string;
  text: string;
}

export interface Layout {
  files: SchemaFile[];
  /** Lines for whoever ran the generator: objects moved to a later file, unsorted tables, comments that lost their statement. */
  notes: string[];
}

/** What people wrote in the current files: a file's opening comment, and the comment above each statement (by its first line). */
export interface KeptComments {
  headers: Map<string, string>;
  above: Map<string, string>;
}

/** Every file begins so: the settings pg_dump uses, so a function may name a table a later file makes. */
const PREAMBLE = `set check_function_bodies = false;`;

const GROUP_MARK = /^-- ── .* ──$/;

/** The objects of `migrated` that the bootstrap does not have, or has otherwise. */
export function ownObjects(migrated: Map<string, DbObject>, bootstrap: Map<string, DbObject>): { own: DbObject[]; problems: string[] } {
  const own: DbObject[] = [];
  const problems: string[] = [];
  for (const object of migrated.values()) {
    const before = bootstrap.get(object.key);
    if (!before) own.push(object);
    else if (before.sql !== object.sql) {
      // A changed grant or function is written again in full; a changed table the writer cannot say.
      if (object.kind === 'acl' || object.kind === 'schema acl' || object.kind === 'function' || object.kind === 'view') own.push(object);
      else problems.push(`${object.key}: a migration changed this object of the bootstrap, which the writer cannot say yet: teach scripts/db-schema/catalogue.ts to write that change (docs/schema-files.md)`);
    }
  }
  for (const key of bootstrap.keys()) if (!migrated.has(key)) problems.push(`${key}: a migration dropped this object of the bootstrap`);
  return { own, problems };
}

const RANK: Record<Kind, number> = {
  schema: 0, 'schema acl': 1, extension: 2, type: 3, table: 4, sequence: 5, view: 5, fk: 6, index: 7, acl: 8,
  function: 9, trigger: 11, policy: 12, comment: 13,
};

function featureOf(object: DbObject, tableFeature: Map<string, string>, triggerTables: Map<string, Set<string>>): { feature: string; unsorted?: boolean } {
  for (const feature of FEATURES) if (feature.objects?.some((re) => re.test(object.key))) return { feature: feature.name };
  if (object.kind === 'function' || (object.kind === 'acl' && !object.relation)) {
    // A trigger function goes with the tables whose triggers call it, if they are one feature's.
    const tables = [...(triggerTables.get(functionKey(object)) ?? [])];
    const features = new Set(tables.map((t) => tableFeature.get(t)).filter(Boolean));
    if (features.size === 1) return { feature: [...features][0]! };
    for (const feature of FEATURES) if (feature.functions?.some((re) => re.test(object.name))) return { feature: feature.name };
    return { feature: FEATURES[0].name, unsorted: true };
  }
  if (object.relation) {
    const feature = tableFeature.get(object.relation);
    if (feature) return { feature };
    if (!/^(public|private)\./.test(object.relation)) return { feature: FEATURES[0].name };
    return { feature: UNSORTED, unsorted: true };
  }
  return { feature: FEATURES[0].name };
}

/** A function's key for its grants too. */
const functionKey = (object: DbObject) => (object.kind === 'acl' ? `function ${object.key.slice(4)}` : object.key);

/** public.quote_items → "quote_item", the stem a function name shares with its table. */
const stem = (table: string) => table.split('.')[1]!.replace(/ies$/, 'y').replace(/s$/, '');

export function layout(objects: DbObject[], kept: KeptComments): Layout {
  const notes: string[] = [];
  const byKey = new Map(objects.map((o) => [o.key, o]));
  const featureNames = [...FEATURES.map((f) => f.name), UNSORTED];
  const tableFeature = new Map<string, string>();
  for (const feature of FEATURES) for (const table of feature.tables) tableFeature.set(table, feature.name);

  // Which tables' triggers call each function.
  const triggerTables = new Map<string, Set<string>>();
  for (const o of objects) {
    if (o.kind !== 'trigger') continue;
    for (const need of o.needs) if (need.startsWith('function ')) {
      if (!triggerTables.has(need)) triggerTables.set(need, new Set());
      triggerTables.get(need)!.add(o.relation!);
    }
  }

  // Desired place of each object: its file, the table it is grouped under, its rank there.
  interface Place { file: number; group: number; groupName: string; rank: number; name: string }
  const place = new Map<string, Place>();
  const unsortedTables = new Set<string>();
  const groupsOf = new Map<string, string[]>(); // feature → its tables in order
  for (const feature of FEATURES) groupsOf.set(feature.name, [...feature.tables]);
  groupsOf.set(UNSORTED, []);
  for (const o of objects) {
    if ((o.kind === 'table' || o.kind === 'view' || o.kind === 'sequence') && !tableFeature.has(o.relation!) && /^(public|private)\./.test(o.relation!)) {
      unsortedTables.add(o.relation!);
      tableFeature.set(o.relation!, UNSORTED);
      groupsOf.get(UNSORTED)!.push(o.relation!);
    }
  }
  for (const table of unsortedTables) notes.push(`${table} is in no feature of scripts/db-schema/features.ts: written to ${UNSORTED}.sql`);

  for (const o of objects) {
    const { feature, unsorted } = featureOf(o, tableFeature, triggerTables);
    if (unsorted && o.kind === 'function') notes.push(`${o.key} matches no feature's functions in scripts/db-schema/features.ts: written to ${feature}.sql`);
    const file = featureNames.indexOf(feature);
    const tables = groupsOf.get(feature)!;
    let groupName = o.relation && tables.includes(o.relation) ? o.relation : '';
    if (!groupName && (o.kind === 'function' || o.kind === 'acl')) {
      const called = [...(triggerTables.get(functionKey(o)) ?? [])].filter((t) => tables.includes(t));
      const named = tables.filter((t) => o.name.split('.')[1]!.includes(stem(t)));
      groupName = called[0] ?? named.sort((a, b) => stem(b).length - stem(a).length)[0] ?? '';
    }
    // Schemas, extensions, types first; a feature's other functions after its tables.
    const group = ['schema', 'schema acl', 'extension', 'type'].includes(o.kind) ? -1 : groupName ? tables.indexOf(groupName) : tables.length;
    // A function and its grants side by side (same rank, the grants' name sorting just after).
    const rank = o.kind === 'acl' && !o.relation ? RANK.function : RANK[o.kind];
    const name = o.kind === 'acl' && !o.relation ? `${functionKey(o).slice(9)}\u0001` : o.kind === 'function' ? o.key.slice(9) : o.key;
    place.set(o.key, { file, group, groupName, rank, name });
  }
  // A function's comment goes just after its grants.
  for (const o of objects) {
    const described = o.kind === 'comment' ? o.needs.find((n) => n.startsWith('function ')) : undefined;
    if (described && place.has(described)) place.set(o.key, { ...place.get(described)!, name: `${place.get(described)!.name}\u0002` });
  }
  const before = (a: Place, b: Place) =>
    a.file - b.file || a.group - b.group || a.rank - b.rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

  // Each object after everything it needs, else in its desired order.
  const remaining = new Map(objects.map((o) => [o.key, o.needs.filter((n) => byKey.has(n))]));
  const topological = (at: Map<string, Place>): string[] => {
    const order: string[] = [];
    const waiting = new Set(objects.map((o) => o.key));
    while (waiting.size > 0) {
      let next: string | undefined;
      for (const key of waiting) {
        if (remaining.get(key)!.some((n) => waiting.has(n))) continue;
        if (!next || before(at.get(key)!, at.get(next)!) < 0) next = key;
      }
      if (!next) throw new Error(`objects that need each other: ${[...waiting].slice(0, 10).join(', ')}`);
      waiting.delete(next);
      order.push(next);
    }
    return order;
  };
  // An object needing one of a later table's group (or a later file) is
  // written in that group, so each table's block stays in one piece: a
  // function returning a view's rows goes under the view.
  const effective = new Map<string, Place>();
  for (const key of topological(place)) {
    const own = place.get(key)!;
    let at = own;
    for (const need of remaining.get(key)!) {
      const e = effective.get(need)!;
      if (e.file > at.file || (e.file === at.file && e.group > at.group)) at = { ...own, file: e.file, group: e.group, groupName: e.groupName };
    }
    effective.set(key, at);
    if (at.file !== own.file) {
      const cause = remaining.get(key)!.filter((n) => effective.get(n)!.file === at.file);
      notes.push(`${key}: written in ${featureNames[at.file]}.sql, not ${featureNames[own.file]}.sql, after ${cause.join(', ')}`);
    }
  }
  for (const [key, at] of effective) place.set(key, at);
  const order = topological(place).map((key) => byKey.get(key)!);
  const fileOf = new Map(order.map((o) => [o.key, place.get(o.key)!.file]));

  // A foreign key to a table already written goes inside its table's create statement.
  const position = new Map(order.map((o, i) => [o.key, i]));
  const inline = new Map<string, string[]>();
  const inlined = new Set<string>();
  for (const o of order) {
    if (o.kind !== 'fk') continue;
    const table = `table ${o.relation}`;
    const target = `table ${o.references}`;
    if (o.sql.endsWith(' NOT VALID')) continue;
    if (byKey.has(table) && (o.references === o.relation || (position.get(target) ?? -1) < position.get(table)!) && fileOf.get(o.key) === fileOf.get(table)) {
      if (!inline.has(table)) inline.set(table, []);
      inline.get(table)!.push(o.sql);
      inlined.add(o.key);
    }
  }

  const usedComments = new Set<string>();
  const files: SchemaFile[] = [];
  for (let file = 0; file < featureNames.length; file++) {
    const feature = featureNames[file];
    const inFile = order.filter((o) => fileOf.get(o.key) === file && !inlined.has(o.key));
    if (inFile.length === 0) continue;
    const about = FEATURES.find((f) => f.name === feature)?.about ?? 'Tables no feature of scripts/db-schema/features.ts lists yet.';
    const header = kept.headers.get(feature)
      ?? `${wrap(about)}\n--\n-- The schema as the migrations leave it (docs/schema-files.md): change it here and in a\n-- new migration together; tests/db/schema-files.test.ts holds that they agree.`;
    const parts: string[] = [header, PREAMBLE];
    let group: string | undefined;
    for (const o of inFile) {
      const p = place.get(o.key)!;
      const groupName = p.groupName;
      if (groupName !== group && !(group === undefined && p.group === -1)) {
        group = groupName;
        parts.push(`-- ── ${groupName || 'functions'} ──`);
      }
      let sql = o.sql;
      if (o.kind === 'table' && inline.has(o.key)) {
        sql = sql.replace(/\n\);/, `,\n${inline.get(o.key)!.map((fk) => `  ${fk}`).join(',\n')}\n);`);
      }
      if (o.kind === 'fk') sql = `alter table ${o.relation} add ${sql};`;
      sql = lowerKeywords(sql);
      const anchor = sql.split('\n')[0]!;
      const comment = kept.above.get(anchor);
      if (comment) usedComments.add(anchor);
      // A run of one-line indexes or triggers, and a function's grants, read as one block.
      const previous = inFile[inFile.indexOf(o) - 1];
      const joins = !comment && previous && parts.length > 2 && (
        (o.kind === previous.kind && (o.kind === 'index' || o.kind === 'trigger') && place.get(previous.key)!.groupName === groupName)
        || (o.kind === 'acl' && !o.relation && previous.kind === 'function'));
      if (joins) parts[parts.length - 1] += `\n${sql}`;
      else parts.push(comment ? `${comment}\n${sql}` : sql);
    }
    files.push({ feature, text: `${parts.join('\n\n')}\n` });
  }
  for (const anchor of kept.above.keys()) {
    if (!usedComments.has(anchor)) notes.push(`a comment lost its statement (no longer made: "${anchor}"); put it back by hand if it still applies`);
  }
  return { files, notes };
}

/**
 * PostgreSQL writes its keywords in capitals (CREATE INDEX, PRIMARY KEY,
 * SECURITY DEFINER); the migrations, and so the files, write them in small
 * letters. Outside quotes and function bodies every capitalised word is a
 * keyword (PostgreSQL quotes any name that is not all small letters), so
 * lowering them changes nothing the database reads.
 */
export function lowerKeywords(sql: string): string {
  // Single-quoted strings, quoted names, dollar-quoted bodies are kept as they are.
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|(\$[A-Za-z_]*\$)[\s\S]*?\1|\b[A-Z][A-Z_]*\b/g, (token) =>
    /^[A-Z][A-Z_]*$/.test(token) ? token.toLowerCase() : token);
}

/** A comment of lines under 100 characters. */
function wrap(text: string): string {
  const lines: string[] = [];
  let line = '--';
  for (const word of text.split(/\s+/)) {
    if (line.length + word.length + 1 > 100) {
      lines.push(line);
      line = '--';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/** The comments in the current schema files, to write again above the same statements. */
export function readComments(files: { feature: string; text: string }[]): KeptComments {
  const headers = new Map<string, string>();
  const above = new Map<string, string>();
  for (const { feature, text } of files) {
    const lines = text.split('\n');
    let at = 0;
    const header: string[] = [];
    while (at < lines.length && lines[at]!.startsWith('--')) header.push(lines[at++]!);
    if (header.length > 0) headers.set(feature, header.join('\n'));
    let block: string[] = [];
    // The dollar-quote tag of the function body being skipped, if any.
    let body: string | undefined;
    for (; at < lines.length; at++) {
      const line = lines[at]!;
      const tags = line.match(/\$[A-Za-z_]*\$/g) ?? [];
      const odd = (tag: string) => tags.filter((t) => t === tag).length % 2 === 1;
      // Comments inside a function's body belong to the body (the database keeps them).
      if (body) {
        if (odd(body)) body = undefined;
        continue;
      }
      if (line.startsWith('--')) {
        if (!GROUP_MARK.test(line)) block.push(line);
        continue;
      }
      if (line.trim() === '') continue;
      if (block.length > 0) above.set(line, block.join('\n'));
      block = [];
      body = tags.find(odd);
    }
  }
  return { headers, above };
}
