// What `npm run new:module -- <name>` writes (docs/adding-a-module.md): a
// list module as small as the checklist's target, each file the shape of its
// neighbours in app/features/bills and app/features/leads. Every function
// here returns a file's text or an entry for a shared table.

export interface Names {
  /** The URL and the folder: 'field-visits'. */
  name: string;
  /** The table and the SQL names: 'field_visits'. */
  table: string;
  /** The record type of its audit rows and history (private.record_types): the table's name, never ambiguous. */
  type: string;
  /** 'Field visits' */
  title: string;
  /** 'field visits', lower case, for "Showing 1–20 of 25 field visits". */
  noun: string;
  /** 'FieldVisits' */
  pascal: string;
  /** 'FIELD_VISITS' */
  constant: string;
}

export const NAME_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** Postgres names are 63 bytes at most; the longest one made here adds 34 to the table's name. */
export const MAX_NAME_LENGTH = 28;

export function namesOf(name: string): Names {
  const words = name.split('-');
  const table = words.join('_');
  const title = words.join(' ').replace(/^./, (c) => c.toUpperCase());
  return {
    name,
    table,
    type: table,
    title,
    noun: words.join(' '),
    pascal: words.map((w) => w.replace(/^./, (c) => c.toUpperCase())).join(''),
    constant: table.toUpperCase(),
  };
}

const FILL_IN = 'written by npm run new:module; TODO (fill in): say what a row is, shape its columns, form and texts';

export function listRoute(n: Names): string {
  return `// The ${n.title} screen (${FILL_IN}): the account's ${n.noun},
// searched, filtered and paged by URL, with a create dialog at ?new
// (docs/adding-a-module.md).
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, Link } from 'react-router';
import type { Route } from './+types/${n.name}';
import { TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { ListScreen } from '~/components/list-screen';
import { StatusBadge } from '~/components/status-badge';
import { SubmitButton } from '~/components/submit-button';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readListQuery } from '~/lib/list-query';
import { createRecord } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { insert${n.pascal}, load${n.pascal}, type ${n.pascal}Row } from './queries.server';
import { ${n.constant}_STATUS_LABELS, ${n.constant}_STATUS_OPTIONS, ${n.constant}_STATUSES, new${n.pascal}Schema, type ${n.pascal}Status } from './schema';
import { ${n.constant}_TEXTS as TEXTS } from './texts';

const LIST = '/${n.name}';

export const meta: Route.MetaFunction = () => [{ title: TEXTS.title }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, ${n.constant}_STATUSES);
  const [{ profile }, list] = await requireUserWith(request, context, (supabase) => load${n.pascal}(supabase, query));
  return { canWrite: canWriteBusiness(profile?.role), list };
}

export function action(args: Route.ActionArgs) {
  return createRecord(args, { schema: new${n.pascal}Schema, listPath: LIST, texts: TEXTS, noun: '${n.noun}', write: insert${n.pascal} });
}

export default function ${n.pascal}({ loaderData, actionData }: Route.ComponentProps) {
  const { list, canWrite } = loaderData;
  return (
    <ListScreen
      pathname={LIST}
      texts={TEXTS}
      list={list}
      canWrite={canWrite}
      statuses={${n.constant}_STATUS_OPTIONS}
      summary={null}
      form={<New${n.pascal}Form lastResult={actionData?.result} />}
    >
      {list.rows.map((row) => (
        <${n.pascal}Item key={row.id} row={row} />
      ))}
    </ListScreen>
  );
}

function ${n.pascal}Item({ row }: { row: ${n.pascal}Row }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-4">
      <div className="grid min-w-0 gap-1">
        <p className="truncate font-medium">
          <Link to={\`\${LIST}/\${row.id}\`} className="underline-offset-2 hover:underline">
            {row.name}
          </Link>
        </p>
        <p className="text-xs text-muted-foreground">Created {formatShortDate(row.created_at)}</p>
      </div>
      <StatusBadge status={row.status} label={${n.constant}_STATUS_LABELS[row.status as ${n.pascal}Status]} />
    </li>
  );
}

/** The New dialog's form. Posts to the list's ?new, so a failure re-renders it open and filled in; works without JavaScript. */
function New${n.pascal}Form({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useSchemaForm(new${n.pascal}Schema, { id: 'new-${n.name}', lastResult });
  return (
    <Form method="post" action={\`\${LIST}?new\`} className="grid gap-4" {...getFormProps(form)}>
      <TextField field={fields.name} label="Name" />
      <TextareaField field={fields.notes} label="Notes" rows={2} />
      <SubmitButton label={TEXTS.createButton} busyLabel="Creating..." className="justify-self-end" />
    </Form>
  );
}
`;
}

export function detailRoute(n: Names): string {
  return `// A record's page of ${n.title} (${FILL_IN}): its facts and its
// history (docs/adding-a-module.md). Edit and delete dialogs: copy
// app/features/bills/bill-detail.tsx (recordWriter, recordDialog).
import type { Route } from './+types/${n.name}-detail';
import { FactsPanel } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { Timeline } from '~/components/records/timeline';
import { StatusBadge } from '~/components/status-badge';
import { formatShortDate } from '~/lib/dates';
import { requireUserWithRecord } from '~/lib/record-page.server';
import { loadOne${n.pascal} } from './queries.server';
import { ${n.constant}_STATUS_LABELS, type ${n.pascal}Status } from './schema';
import { ${n.constant}_DETAIL_TEXTS as TEXTS } from './texts';

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData ? \`\${loaderData.record.name} · ${n.title}\` : TEXTS.notFound }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, loadOne${n.pascal});
  return found;
}

export default function ${n.pascal}Page({ loaderData }: Route.ComponentProps) {
  const { record, history } = loaderData;
  return (
    <RecordPage
      back={{ to: '/${n.name}', label: TEXTS.back }}
      title={record.name}
      status={<StatusBadge status={record.status} label={${n.constant}_STATUS_LABELS[record.status as ${n.pascal}Status]} />}
      facts={
        <FactsPanel
          facts={[
            { label: 'Created', value: formatShortDate(record.created_at) },
            { label: 'Notes', value: record.notes ? <span className="whitespace-pre-line">{record.notes}</span> : null },
          ]}
        />
      }
    >
      <Timeline moments={[{ label: 'Created', at: record.created_at, covers: ['${n.type}_created'] }]} entries={history.entries} failed={history.failed} />
    </RecordPage>
  );
}
`;
}

export function queries(n: Names): string {
  return `// What the ${n.title} screens ask of the database (${FILL_IN}):
// a page of the account's rows (a search goes through search_${n.table}, which
// reads only the account's matches from its indexes; decision 037), one row
// with its history, and the insert.
import type { Tables } from '~/lib/database.types';
import { searchText, type ListQuery } from '~/lib/list-query';
import { loadHistory } from '~/lib/record-history.server';
import { filterList, readList } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import type { New${n.pascal}, ${n.pascal}Status } from './schema';

const LIST_COLUMNS = 'id, name, status, created_at';

export type ${n.pascal}Row = Pick<Tables<'${n.table}'>, 'id' | 'name' | 'status' | 'created_at'>;

/** The page of rows, newest first, searched by name and filtered by status. */
export function load${n.pascal}(supabase: Supabase, query: ListQuery<${n.pascal}Status>) {
  const search = searchText(query.q);
  const matching = search
    ? supabase.rpc('search_${n.table}', { p_query: search }, { get: true, count: 'exact' }).select(LIST_COLUMNS)
    : supabase.from('${n.table}').select(LIST_COLUMNS, { count: 'exact' });
  return readList<${n.pascal}Row, ${n.pascal}Status>(filterList(matching, query), query, '${n.table}');
}

/** One row of the caller's account with its history; null when there is none it may read. */
export async function loadOne${n.pascal}(supabase: Supabase, id: string) {
  // One round trip: the row and its history at once.
  const [{ data: record, error }, history] = await Promise.all([
    supabase.from('${n.table}').select('id, name, status, notes, created_at, updated_at').eq('id', id).maybeSingle(),
    loadHistory(supabase, '${n.type}', id),
  ]);
  if (error) console.error(\`${n.noun} failed to load: \${error.message}\`);
  return record ? { record, history } : null;
}

/** The account is the database's to fill in (account_id defaults to the caller's). */
export function insert${n.pascal}(supabase: Supabase, row: New${n.pascal}) {
  return supabase.from('${n.table}').insert({ name: row.name, notes: row.notes || null }).select('id, name').single();
}
`;
}

export function schema(n: Names): string {
  return `// The ${n.title} forms (${FILL_IN}): the statuses the
// table's check allows and the New dialog's fields.
import { z } from '~/lib/schemas/zod';
import { optionalText, requiredText } from '~/lib/schemas/fields';

export const ${n.constant}_STATUSES = ['active', 'archived'] as const;
export type ${n.pascal}Status = (typeof ${n.constant}_STATUSES)[number];
export const ${n.constant}_STATUS_LABELS: Record<${n.pascal}Status, string> = { active: 'Active', archived: 'Archived' };
export const ${n.constant}_STATUS_OPTIONS = ${n.constant}_STATUSES.map((value) => ({ value, label: ${n.constant}_STATUS_LABELS[value] }));

export const new${n.pascal}Schema = z.object({
  name: requiredText('Name', 200),
  notes: optionalText('Notes', 5000),
});
export type New${n.pascal} = z.output<typeof new${n.pascal}Schema>;
`;
}

export function texts(n: Names): string {
  return `// What the ${n.title} screens say (${FILL_IN}).
export const ${n.constant}_TEXTS = {
  title: '${n.title}',
  description: 'TODO (fill in): one sentence on what these are for.',
  newButton: 'New',
  createButton: 'Create',
  dialogTitle: 'New',
  dialogDescription: 'Add one to the list.',
  listHeading: '${n.title}',
  searchLabel: 'Search ${n.noun}',
  noun: '${n.noun}',
  created: 'Created',
  createFailed: 'Failed to create',
  loadFailed: 'Failed to fetch ${n.noun}',
  empty: 'Nothing here yet.',
  noMatch: 'Nothing matches your search.',
} as const;

export const ${n.constant}_DETAIL_TEXTS = {
  back: 'Back to ${n.noun}',
  notFound: 'Not found',
} as const;
`;
}

export function migration(n: Names): string {
  const t = n.table;
  return `-- ${n.title} (${FILL_IN}).
-- One migration holds everything the table needs (docs/adding-a-module.md):
-- staff read; admins and members write; clients, suppliers and anyone else
-- see nothing (decision 012). A search function over trigram indexes that
-- lead with the account (decision 037).

create table public.${t} (
  id uuid primary key default gen_random_uuid(),
  -- The app writes without reading the account first: the caller's, unless the service role says otherwise.
  account_id uuid not null default public.current_account_id() references public.accounts (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 200),
  status text not null default 'active' check (status in ('active', 'archived')),
  notes text check (length(notes) <= 5000),
  created_by uuid default public.current_user_id(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, account_id),
  foreign key (created_by, account_id) references public.users (id, account_id) on delete set null (created_by)
);
-- The list's order, its status filter, and its search (account first: the search reads only the account's entries).
create index ${t}_account_id_created_at_idx on public.${t} (account_id, created_at desc, id desc);
create index ${t}_account_id_status_created_at_idx on public.${t} (account_id, status, created_at desc, id desc);
create index ${t}_created_by_idx on public.${t} (created_by);
create index ${t}_account_name_trgm_idx on public.${t} using gin (account_id, name extensions.gin_trgm_ops);

create trigger ${t}_set_updated_at before update on public.${t}
  for each row execute function private.set_updated_at();

-- Row-level security ----------------------------------------------------------

alter table public.${t} enable row level security;
revoke all on public.${t} from anon;
revoke insert, update, delete, truncate on public.${t} from authenticated;
-- What a person may type.
grant insert (account_id, name, status, notes) on public.${t} to authenticated;
grant update (name, status, notes) on public.${t} to authenticated;
grant delete on public.${t} to authenticated;

create policy "staff read their account's ${n.noun}" on public.${t}
  for select to authenticated
  using (account_id = (select public.current_account_id()) and (select public.is_account_staff()));
create policy "business writers add ${n.noun}" on public.${t}
  for insert to authenticated
  with check (account_id = (select public.current_account_id()) and (select public.can_write_business()));
create policy "business writers update ${n.noun}" on public.${t}
  for update to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()))
  with check (account_id = (select public.current_account_id()));
create policy "business writers delete ${n.noun}" on public.${t}
  for delete to authenticated
  using (account_id = (select public.current_account_id()) and (select public.can_write_business()));

-- Audit rows ------------------------------------------------------------------

create function private.audit_${t}() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_changes record;
begin
  if tg_op = 'INSERT' then
    perform private.write_audit(new.account_id, '${n.type}_created', '${n.type}', new.id, null, to_jsonb(new));
  elsif tg_op = 'DELETE' then
    perform private.write_audit(old.account_id, '${n.type}_deleted', '${n.type}', old.id, to_jsonb(old), null);
  else
    select * into v_changes from private.changed_values(to_jsonb(old), to_jsonb(new));
    if v_changes.new_values - 'updated_at' <> '{}'::jsonb then
      perform private.write_audit(new.account_id, '${n.type}_updated', '${n.type}', new.id, v_changes.old_values, v_changes.new_values);
    end if;
  end if;
  return null;
end;
$$;
revoke all on function private.audit_${t}() from public;
create trigger ${t}_audit after insert or update or delete on public.${t}
  for each row execute function private.audit_${t}();

insert into private.record_types (type, table_name, name_sql, snapshot_key, has_history) values
  ('${n.type}', 'public.${t}', $$r.name$$, 'name', true);

-- Search (decision 037) --------------------------------------------------------

-- The caller's rows whose name contains p_query; states the select policy itself.
create function public.search_${t}(p_query text)
returns setof public.${t}
language plpgsql stable
security definer
set search_path = ''
set enable_seqscan = off
as $$
declare
  v_account uuid := public.current_account_id();
begin
  if v_account is null or p_query is null or not public.is_account_staff() then
    return;
  end if;
  return query execute $sql$
    select x.* from public.${t} x
     where x.account_id = $1
       and x.name ilike $2
  $sql$ using v_account, private.contains_pattern(p_query);
end;
$$;
revoke all on function public.search_${t}(text) from public, anon;
grant execute on function public.search_${t}(text) to authenticated;
`;
}

export function seedRows(n: Names): string {
  return `-- ${n.title} of the demo account (written by npm run new:module; TODO (fill in): rows that show the screen).
insert into public.${n.table} (account_id, name, status, notes, created_at)
select u.account_id, s.name, s.status, s.notes, now() - s.age
  from public.users u
  cross join (values
    ('First of ${n.noun}', 'active', 'A demo row.', interval '2 days'),
    ('An archived one', 'archived', null, interval '9 days')
  ) as s (name, status, notes, age)
 where u.email = 'demo@opshub.test';

`;
}

export function featureEntry(n: Names): string {
  return `  {
    name: '${n.name}',
    about: '${n.title}: TODO (fill in) what they are (written by npm run new:module).',
    tables: ['public.${n.table}'],
    functions: [/^public\\.search_${n.table}$/],
  },
`;
}

export function roleMatrixCase(n: Names): string {
  return `  // ${n.title} (npm run new:module): staff read, admins and members write.
  ${n.table}: {
    read: staffRead('none'), insert: WRITERS, update: WRITERS, delete: WRITERS,
    rowsOfAccount: byAccount('${n.table}'),
    newRow: (f) => ({ account_id: f.admin.accountId, name: 'New' }),
    fresh: async (s, f) => insertedId(s, '${n.table}', { account_id: f.admin.accountId, name: 'Fresh' }),
    existing: firstOf('${n.table}'),
    changes: { notes: 'Changed' },
  },
`;
}

export const roleMatrixFixture = (n: Names) =>
  `      await must(admin.client.from('${n.table}').insert({ account_id: accountId, name: 'Existing' }));\n`;

export const tenantFixture = (n: Names) => `  await must(a.client.from('${n.table}').insert({ account_id: a.accountId, name: 'Northwind' }));\n`;

export const tenantCase = (n: Names) =>
  `    { table: '${n.table}', id: await firstId('${n.table}', 'account_id', a.accountId), insert: { account_id: a.accountId, name: 'Spy' }, update: { notes: 'Hijacked' } },\n`;

export function hostileAction(n: Names): string {
  return `  {
    name: '${n.name}: create',
    route: 'features/${n.name}/${n.name}.tsx',
    path: '/${n.name}?new',
    fields: { name: text('hostile-probe {n}', true), notes: text('hostile-probe notes') },
    actor: 'admin',
    signedIn: true,
  },
`;
}

export const routeEntries = (n: Names) =>
  `      route('${n.name}', 'features/${n.name}/${n.name}.tsx'),\n      route('${n.name}/:id', 'features/${n.name}/${n.name}-detail.tsx'),\n`;

export const navigationItem = (n: Names) => `      { to: '/${n.name}', label: '${n.title}', icon: Blocks },\n`;

/** A test file whose cases fail until someone writes them: never a skip, which would pass unseen. */
function skeleton(n: Names, layer: string, copyFrom: string, cases: string[]): string {
  return `// ${n.title} ${layer} (written by npm run new:module as a skeleton: each case
// fails until it is filled in; copy from ${copyFrom}).
import { describe, it } from 'vitest';

describe('${n.noun}', () => {
${cases.map((c) => `  it('${c}', () => {\n    throw new Error('fill in: ${c}');\n  });`).join('\n')}
});
`;
}

export function dbTest(n: Names): string {
  return skeleton(n, 'in the database', 'tests/db/bills.test.ts and tests/db/list-search.test.ts', [
    'search_' + n.table + ' finds for every role what the select policy shows (a case in tests/db/list-search.test.ts)',
    'writes an audit row for a create, an update and a delete, and the record page reads them',
    'refuses what the checks refuse (a blank name, notes over 5000 characters, an unknown status)',
  ]);
}

export function workerTest(n: Names): string {
  return skeleton(n, 'through the real Worker', 'tests/worker/bills.test.ts', [
    'lists, searches, filters and pages /' + n.name,
    'creates from the New dialog and refuses an invalid form with what was typed kept',
    'shows a record page, and another account gets a 404',
    'lets an auditor read and refuses its post',
  ]);
}

export function e2eTest(n: Names): string {
  return skeleton(n, 'in a browser', 'tests/e2e/business-screens.test.ts', [
    'creates one from the dialog with JavaScript and without',
    'searches and opens a record page',
  ]);
}
