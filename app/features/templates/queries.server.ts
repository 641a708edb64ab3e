// What the Templates screen asks of the database: a page of the account's
// templates (only their preview travels to the page) and the one a dialog
// edits or deletes.
import type { Tables } from '~/lib/database.types';
import { isUuid, newestFirstPage } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import { contentPreview } from './schema';
import type { TemplateValues } from './template-form';

const TEMPLATE_COLUMNS = 'id, name, type, subject, content, variables, created_at';

type TemplateRow = Pick<Tables<'templates'>, 'id' | 'name' | 'type' | 'subject' | 'content' | 'variables' | 'created_at'>;

/** The columns the list sorts by: each has an account-first index (migration 20261202800001). */
const TEMPLATE_SORTS = ['name', 'created_at'];

export async function loadTemplates(supabase: Supabase, url: URL) {
  const list = await newestFirstPage<TemplateRow>(supabase, 'templates', TEMPLATE_COLUMNS, url, TEMPLATE_SORTS);

  // The dialog's template: from this page, or read by id when it is on another.
  const wanted = url.searchParams.get('edit') ?? url.searchParams.get('delete');
  let selected: TemplateRow | null = list.rows.find((row) => row.id === wanted) ?? null;
  if (!selected && isUuid(wanted)) {
    const { data: one } = await supabase.from('templates').select(TEMPLATE_COLUMNS).eq('id', wanted).maybeSingle();
    selected = one;
  }

  return {
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
    selected,
  };
}

/** A template as its edit dialog shows it: the variables as indented JSON. */
export function templateValues(template: TemplateRow): TemplateValues {
  return {
    id: template.id,
    name: template.name,
    type: template.type,
    subject: template.subject ?? '',
    content: template.content,
    variables: template.variables === null ? '' : JSON.stringify(template.variables, null, 2),
  };
}
