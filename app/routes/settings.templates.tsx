import { parseWithZod } from '@conform-to/zod/v4';
import { Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/settings.templates';
import { EmptyState } from '~/components/settings/empty-state';
import { ListPager } from '~/components/list-pager';
import { RestrictedScreen } from '~/components/settings/restricted-screen';
import { DeleteDialog, EditDeleteLinks } from '~/components/settings/row-actions';
import { SettingsHeader } from '~/components/settings/settings-header';
import { TemplateForm, type TemplateValues } from '~/components/settings/template-form';
import { Badge } from '~/components/ui/badge';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { formatShortDate } from '~/lib/relative-time';
import { readFormData } from '~/lib/forms.server';
import { TEMPLATE_TEXTS, templateActionSchema } from '~/lib/schemas/settings-templates';
import { refuseNonAdmin, requireSettingsUser } from '~/lib/settings.server';
import {
  deleteRow,
  isUuid,
  listDialog,
  newestFirstPage,
  refuseSubmission,
  saveRow,
  serverMessage,
} from '~/lib/records.server';
import { SETTINGS_RESTRICTED } from '~/lib/settings-access';
import { contentPreview, TEMPLATE_TYPE_LABELS, type TemplateType } from '~/lib/settings-options';
import { dataWithError } from '~/lib/toast.server';

export const meta: Route.MetaFunction = () => [{ title: 'Templates' }];

const LIST = '/settings/templates';

interface TemplateRow {
  id: string;
  name: string;
  type: TemplateType;
  subject: string | null;
  content: string;
  variables: unknown;
  created_at: string;
}

const TEMPLATE_COLUMNS = 'id, name, type, subject, content, variables, created_at';

function asFormValues(template: TemplateRow): TemplateValues {
  return {
    id: template.id,
    name: template.name,
    type: template.type,
    subject: template.subject ?? '',
    content: template.content,
    variables: template.variables === null ? '' : JSON.stringify(template.variables, null, 2),
  };
}

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { supabase, canRead, isAdmin } = await requireSettingsUser(request, context);
  if (!canRead) return { access: 'restricted' as const };
  const list = await newestFirstPage<TemplateRow>(supabase, 'templates', TEMPLATE_COLUMNS, url);

  // The dialog's template: from this page, or read by id when it is on another.
  const wanted = url.searchParams.get('edit') ?? url.searchParams.get('delete');
  let selected: TemplateRow | null = list.rows.find((row) => row.id === wanted) ?? null;
  if (!selected && isUuid(wanted)) {
    const { data: one } = await supabase
      .from('templates')
      .select(TEMPLATE_COLUMNS)
      .eq('id', wanted)
      .maybeSingle<TemplateRow>();
    selected = one;
  }

  return {
    access: 'granted' as const,
    // Auditors read the list; the dialogs that change it are admins'.
    readOnly: !isAdmin,
    // Only the preview travels to the page (docs/product-guide.md), not the whole content.
    list: {
      ...list,
      rows: list.rows.map(({ id, name, type, subject, created_at, content }) => ({
        id,
        name,
        type,
        subject,
        created_at,
        preview: contentPreview(content),
      })),
    },
    error: list.failed ? TEMPLATE_TEXTS.loadFailed : null,
    mode: isAdmin ? listDialog(url, selected !== null) : null,
    selected: selected ? asFormValues(selected) : null,
  };
}

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const user = await requireSettingsUser(request, context);
  const refused = refuseNonAdmin(args, user, SETTINGS_RESTRICTED.templates);
  if (refused) return refused;
  const { supabase, profile } = user;
  const submission = parseWithZod(await readFormData(request), { schema: templateActionSchema });
  if (submission.status !== 'success') return refuseSubmission(args, submission, { toast: (errors) => errors.variables?.[0] });
  const form = submission.value;

  if (form.intent === 'delete') {
    if (!(await deleteRow(supabase, 'templates', form.id))) {
      return dataWithError(args, { result: submission.reply() }, TEMPLATE_TEXTS.deleteFailed, { status: 400 });
    }
    return redirectWithSuccess(LIST, TEMPLATE_TEXTS.deleted);
  }

  const saved = await saveRow(supabase, profile, 'templates', form.id, {
    name: form.name,
    type: form.type,
    // Only an email has a subject (docs/product-guide.md).
    subject: form.type === 'email' ? (form.subject ?? null) : null,
    content: form.content,
    variables: form.variables ?? null,
  });
  if (!saved.ok) {
    return dataWithError(
      args,
      { result: submission.reply() },
      serverMessage(saved.error, TEMPLATE_TEXTS.saveFailed),
      { status: 400 },
    );
  }
  return redirectWithSuccess(LIST, form.id ? TEMPLATE_TEXTS.updated : TEMPLATE_TEXTS.created);
}

const NEW_TEMPLATE: TemplateValues = { name: '', type: 'email', subject: '', content: '', variables: '' };

export default function SettingsTemplates({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.access === 'restricted') return <RestrictedScreen title="Templates" message={SETTINGS_RESTRICTED.templates} />;
  const { list, error, mode, selected, readOnly } = loaderData;
  const templates = list.rows;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  return (
    <>
      <SettingsHeader
        title="Templates"
        description="Reusable texts for emails, quotes, invoices and contracts."
        actions={
          readOnly ? null : (
            <Link to="?new" preventScrollReset className={buttonClasses()}>
              New Template
            </Link>
          )
        }
      />
      {error ? (
        <EmptyState title={error}>Please try again in a moment.</EmptyState>
      ) : templates.length === 0 ? (
        <EmptyState title="No templates yet">Create your first template to reuse it in quotes and emails.</EmptyState>
      ) : (
        <ul className="grid gap-3" aria-label="Templates">
          {templates.map((template) => (
            <li key={template.id}>
              <Card>
                <CardContent className="grid gap-2 pt-6">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <div className="flex items-center gap-2">
                      <h3 className="font-semibold">{template.name}</h3>
                      <Badge variant="outline">{TEMPLATE_TYPE_LABELS[template.type] ?? template.type}</Badge>
                    </div>
                    {readOnly ? null : (
                      <div className="flex gap-2">
                        <EditDeleteLinks id={template.id} name={template.name} />
                      </div>
                    )}
                  </div>
                  {template.subject ? <p className="text-sm font-medium">Subject: {template.subject}</p> : null}
                  <p className="whitespace-pre-line text-sm text-muted-foreground">{template.preview}</p>
                  <p className="text-xs text-muted-foreground">
                    Created <time dateTime={template.created_at}>{formatShortDate(template.created_at)}</time>
                  </p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
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
      <DeleteDialog open={mode === 'delete'} closeTo={LIST} noun="Template" selected={selected} />
    </>
  );
}
