// The Templates settings screen (docs/product-guide.md, Settings: Templates):
// the account's templates, paged, with create, edit and delete dialogs opened
// by URL (?new, ?edit=<id>, ?delete=<id>); admins change them, auditors read.
import { createdColumn } from '~/components/records/columns';
import { Link } from 'react-router';
import type { Route } from './+types/templates';
import { ListPager } from '~/components/list-pager';
import { EmptyState } from '~/components/settings/empty-state';
import { RestrictedScreen } from '~/components/settings/restricted-screen';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { DeleteDialog } from '~/components/settings/row-actions';
import { SettingsHeader } from '~/components/settings/settings-header';
import { Badge } from '~/components/ui/badge';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { listHref, withDialog } from '~/lib/list-query';
import { deleteAndAnswer, listDialog, refuseSubmission, saveAndAnswer } from '~/lib/records.server';
import { cn } from '~/lib/utils';
import { SETTINGS_RESTRICTED } from '~/lib/settings-access';
import { readAdminForm, requireSettingsUserWith } from '~/lib/settings.server';
import { loadTemplates, templateValues } from './queries.server';
import { DEFAULT_TEMPLATE_TYPE, templateActionSchema, templateTypeLabel } from './schema';
import { TemplateForm, type TemplateValues } from './template-form';
import { TEMPLATE_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

const LIST = '/settings/templates';

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const [{ canRead, isAdmin }, { list, selected }] = await requireSettingsUserWith(request, context, (supabase) => loadTemplates(supabase, url));
  if (!canRead) return { access: 'restricted' as const };
  return {
    access: 'granted' as const,
    // Auditors read the list; the dialogs that change it are admins'.
    readOnly: !isAdmin,
    list,
    error: list.failed ? TEXTS.loadFailed : null,
    mode: isAdmin ? listDialog(url, selected !== null) : null,
    selected: selected ? templateValues(selected) : null,
  };
}

export async function action(args: Route.ActionArgs) {
  const read = await readAdminForm(args, templateActionSchema, SETTINGS_RESTRICTED.templates);
  if ('refused' in read) return read.refused;
  const { user, submission } = read;
  const { supabase, profile } = user;
  // docs/product-guide.md: the variables box's JSON error is a toast too (the parser's message).
  if (submission.status !== 'success') return refuseSubmission(args, submission, { toast: (errors) => errors.variables?.[0] });
  const form = submission.value;

  if (form.intent === 'delete') {
    return deleteAndAnswer(args, supabase, { table: 'templates', id: form.id, listPath: LIST }, TEXTS, submission.reply);
  }
  const values = {
    name: form.name,
    type: form.type,
    // Only an email has a subject (docs/product-guide.md).
    subject: form.type === 'email' ? (form.subject ?? null) : null,
    content: form.content,
    variables: form.variables ?? null,
  };
  return saveAndAnswer(args, supabase, profile, { table: 'templates', id: form.id, listPath: LIST, values }, TEXTS, submission.reply);
}

type TemplateRow = Awaited<ReturnType<typeof loadTemplates>>['list']['rows'][number];

const COLUMNS: RecordColumn<TemplateRow>[] = [
  { id: 'name', header: 'Name', cell: (template) => template.name, sort: { key: 'name' }, className: 'md:max-w-56' },
  { id: 'type', header: 'Type', cell: (template) => <Badge variant="outline">{templateTypeLabel(template.type)}</Badge>, phone: true },
  {
    id: 'preview',
    header: 'Content',
    cell: (template) => (template.subject ? `Subject: ${template.subject}` : template.preview),
    className: 'max-w-96 truncate text-muted-foreground',
  },
  createdColumn(),
];

const DELETE_COLUMN: RecordColumn<TemplateRow> = {
  id: 'delete',
  header: 'Actions',
  cell: (template) => (
    <Link to={`?delete=${template.id}`} preventScrollReset className={cn(buttonClasses('ghost', 'sm'), 'h-7')} aria-label={`Delete ${template.name}`}>
      Delete
    </Link>
  ),
  interactive: true,
  className: 'w-px text-right',
};

const NEW_TEMPLATE: TemplateValues = { name: '', type: DEFAULT_TEMPLATE_TYPE, subject: '', content: '', variables: '' };

export default function SettingsTemplates({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.access === 'restricted') return <RestrictedScreen title={TEXTS.title} message={SETTINGS_RESTRICTED.templates} />;
  const { list, error, mode, selected, readOnly } = loaderData;
  const templates = list.rows;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  return (
    <>
      <SettingsHeader
        title={TEXTS.title}
        description={TEXTS.description}
        actions={
          readOnly ? null : (
            <Link to="?new" preventScrollReset className={buttonClasses()}>
              {TEXTS.newButton}
            </Link>
          )
        }
      />
      {error ? (
        <EmptyState title={error}>Please try again in a moment.</EmptyState>
      ) : templates.length === 0 ? (
        <EmptyState title={TEXTS.emptyTitle}>
          <p>{TEXTS.emptyHint}</p>
          {readOnly ? null : (
            <Link to="?new" preventScrollReset className={`${buttonClasses()} mt-4`}>
              Add your first template
            </Link>
          )}
        </EmptyState>
      ) : (
        <Card>
          <CardContent className="pt-4">
            <RecordTable
              caption={TEXTS.title}
              pathname={LIST}
              query={list.query}
              rows={templates}
              columns={readOnly ? COLUMNS : [...COLUMNS, DELETE_COLUMN]}
              rowKey={(template) => template.id}
              // No page of its own: an admin's row opens its edit dialog.
              href={(template) => (readOnly ? null : withDialog(listHref(LIST, list.query, {}), `edit=${template.id}`))}
              linkLabel={(template) => `Edit ${template.name}`}
              phoneLine={(template) => template.subject ?? template.preview}
            />
          </CardContent>
        </Card>
      )}
      <ListPager list={list} pathname={LIST} noun="templates" />

      <UrlDialog open={mode === 'new' || mode === 'edit'} closeTo={LIST} title={mode === 'edit' ? 'Edit Template' : 'New Template'}>
        {mode === 'new' || mode === 'edit' ? (
          <TemplateForm
            key={selected?.id ?? 'new'}
            values={mode === 'edit' && selected ? selected : NEW_TEMPLATE}
            lastResult={lastResult}
            closeTo={LIST}
          />
        ) : null}
      </UrlDialog>
      <DeleteDialog open={mode === 'delete'} closeTo={LIST} noun={TEXTS.noun} selected={selected} />
    </>
  );
}
