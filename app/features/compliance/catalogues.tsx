// Control catalogues (issue 37, decision 063): import a catalogue in OSCAL
// JSON, see each catalogue's coverage (controls an item satisfies, and those
// whose item was last found compliant), and turn chosen controls of one into
// requirements. Writers import and create; auditors read. Works without JavaScript.
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/catalogues';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { Input, NativeSelect } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { requireUser, requireUserWith } from '~/lib/auth.server';
import { pageTitle } from '~/lib/page-title';
import { refuseReadOnly, refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { fieldErrorResult } from '~/lib/simulated-upload.server';
import { readFormOrUpload } from './form-data.server';
import { dataWithError } from '~/lib/toast.server';
import { MAX_OSCAL_BYTES, OSCAL_MESSAGES, parseOscalCatalogue } from './oscal';
import { catalogueActionSchema, FREQUENCY_OPTIONS } from './schema';

const PATH = '/compliance/catalogues';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Control catalogues', 'Compliance') }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const chosen = url.searchParams.get('catalogue');
  const catalogueId = chosen && UUID.test(chosen) ? chosen : null;
  const [{ profile }, [coverage, controls]] = await requireUserWith(request, context, (supabase) =>
    Promise.all([
      supabase.rpc('compliance_catalogue_coverage'),
      catalogueId
        ? supabase.from('compliance_controls').select('id, label, family, title, mapped:compliance_item_controls(item_id)')
          .eq('catalogue_id', catalogueId).order('position').limit(500)
        : Promise.resolve({ data: [], error: null }),
    ]),
  );
  if (coverage.error) console.error(`catalogue coverage failed to load: ${coverage.error.message}`);
  return {
    canWrite: canWriteBusiness(profile?.role),
    catalogues: coverage.data ?? [],
    failed: coverage.error !== null,
    catalogueId,
    controls: (controls.data ?? []).map((c) => ({ id: c.id, label: c.label, family: c.family, title: c.title, mapped: (c.mapped ?? []).length > 0 })),
    today: new Date().toISOString().slice(0, 10),
  };
}

export async function action(args: Route.ActionArgs) {
  const { supabase, profile } = await requireUser(args.request, args.context);
  const refused = refuseReadOnly(args, profile);
  if (refused) return refused;
  const read = await readFormOrUpload(args.request, MAX_OSCAL_BYTES);
  if (!read.ok) {
    const message = read.reason === 'too-large' ? OSCAL_MESSAGES.tooLarge : OSCAL_MESSAGES.notJson;
    return dataWithError(args, { result: fieldErrorResult('file', message) }, message, { status: read.reason === 'too-large' ? 413 : 400 });
  }
  const submission = parseWithZod(read.formData, { schema: catalogueActionSchema });
  if (submission.status !== 'success') return refuseSubmission(args, submission, { hideFields: ['file'] });
  const form = submission.value;
  if (form.intent === 'import') {
    const parsed = parseOscalCatalogue(await form.file.text());
    if (!parsed.ok) {
      return dataWithError(args, { result: submission.reply({ fieldErrors: { file: [parsed.message] }, hideFields: ['file'] }) }, parsed.message, { status: 400 });
    }
    const { catalogue } = parsed;
    const { data, error } = await supabase.rpc('import_compliance_catalogue', {
      p_title: catalogue.title, p_version: catalogue.version ?? '', p_oscal_version: catalogue.oscalVersion ?? '', p_source_uuid: catalogue.uuid,
      p_controls: catalogue.controls,
    }).single<{ id: string }>();
    if (error || !data) {
      const message = serverMessage(error, 'Failed to import the catalogue');
      return dataWithError(args, { result: submission.reply({ fieldErrors: { file: [message] }, hideFields: ['file'] }) }, message, { status: error?.code === '23505' ? 409 : 400 });
    }
    return redirectWithSuccess(`${PATH}?catalogue=${data.id}`, `Catalogue imported: ${catalogue.controls.length} controls`);
  }
  const { data: count, error } = await supabase.rpc('create_items_from_controls', {
    p_control_ids: form.control_ids, p_responsible_team: form.responsible_team, p_first_review_date: form.first_review_date, p_frequency: form.frequency,
  });
  if (error) return dataWithError(args, { result: submission.reply() }, serverMessage(error, 'Failed to create the requirements'), { status: 400 });
  // Ids that name no control of the account (another's, or none) make nothing.
  if (!count) {
    const message = 'None of the chosen controls were found';
    return dataWithError(args, { result: submission.reply({ fieldErrors: { control_ids: [message] } }) }, message, { status: 400 });
  }
  return redirectWithSuccess('/compliance', `${Number(count)} requirement${Number(count) === 1 ? '' : 's'} created from the catalogue`);
}

export default function Catalogues({ loaderData, actionData }: Route.ComponentProps) {
  const { canWrite, catalogues, failed, catalogueId, controls, today } = loaderData;
  const result = actionData && 'result' in actionData ? actionData.result : undefined;
  const intent = (result?.initialValue as { intent?: unknown } | undefined)?.intent;
  // What the server refused, said beside the form that was sent (both forms work without JavaScript).
  const errors = [...new Set(Object.values(result?.error ?? {}).flatMap((list) => list ?? []))];
  const refused =
    errors.length > 0 ? (
      <div id={`catalogue-${intent === 'create' ? 'create' : 'import'}-error`} role="alert" className="mb-4 text-sm text-destructive">
        {errors.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
    ) : null;
  return (
    <>
      <PageHeader title="Control catalogues" description="Import a control catalogue in OSCAL JSON, turn its controls into requirements and see what your requirements cover." />
      <p className="mb-4 text-sm"><Link to="/compliance" className="underline">Back to compliance</Link></p>
      {refused}
      {canWrite ? (
        <Card className="mb-6">
          <CardHeader><SectionHeading>Import a catalogue</SectionHeading></CardHeader>
          <CardContent>
            <Form method="post" encType="multipart/form-data" className="flex flex-col gap-2 sm:flex-row sm:items-end">
              <input type="hidden" name="intent" value="import" />
              <div className="grid gap-1">
                <Label htmlFor="catalogue-file">OSCAL catalogue (JSON, 5 MB at most)</Label>
                <input id="catalogue-file" name="file" type="file" accept=".json,application/json" className="text-sm" />
              </div>
              <Button type="submit">Import Catalogue</Button>
            </Form>
          </CardContent>
        </Card>
      ) : null}
      <Card className="mb-6">
        <CardHeader><SectionHeading>Coverage</SectionHeading></CardHeader>
        <CardContent>
          {failed ? <p role="alert" className="text-sm text-destructive">Failed to fetch the catalogues</p> : null}
          {catalogues.length === 0 && !failed ? <p className="text-sm text-muted-foreground">No catalogue imported yet.</p> : null}
          <table className="w-full text-sm">
            <caption className="sr-only">Catalogue coverage</caption>
            <thead><tr><th scope="col" className="text-left">Catalogue</th><th scope="col" className="text-right">Controls</th><th scope="col" className="text-right">Covered</th><th scope="col" className="text-right">Compliant</th></tr></thead>
            <tbody>
              {catalogues.map((c) => (
                <tr key={c.catalogue_id}>
                  <td><Link className="underline" to={`${PATH}?catalogue=${c.catalogue_id}`}>{c.title}</Link>{c.version ? ` (${c.version})` : ''}</td>
                  <td className="text-right">{c.controls}</td>
                  <td className="text-right">{c.mapped} ({c.controls ? Math.round((c.mapped / c.controls) * 100) : 0}%)</td>
                  <td className="text-right">{c.compliant}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </CardContent>
      </Card>
      {catalogueId ? (
        <Card>
          <CardHeader><SectionHeading>Controls</SectionHeading></CardHeader>
          <CardContent>
            <Form method="post" className="grid gap-4">
              <input type="hidden" name="intent" value="create" />
              <ul className="grid gap-1 text-sm" aria-label="Controls">
                {controls.map((c) => (
                  <li key={c.id}>
                    <label className="flex items-start gap-2">
                      {canWrite ? <input type="checkbox" name="control_ids" value={c.id} className="mt-1 size-4" /> : null}
                      <span><span className="font-medium">{c.label}</span> {c.title}{c.family ? <span className="text-muted-foreground"> · {c.family}</span> : null}{c.mapped ? <span className="text-muted-foreground"> · covered</span> : null}</span>
                    </label>
                  </li>
                ))}
              </ul>
              {canWrite ? (
                <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
                  <div className="grid gap-1"><Label htmlFor="catalogue-team">Responsible team</Label><Input id="catalogue-team" name="responsible_team" required /></div>
                  <div className="grid gap-1"><Label htmlFor="catalogue-date">First review</Label><Input id="catalogue-date" name="first_review_date" type="date" defaultValue={today} required /></div>
                  <div className="grid gap-1"><Label htmlFor="catalogue-frequency">Frequency</Label>
                    <NativeSelect id="catalogue-frequency" name="frequency" defaultValue="annual">
                      {FREQUENCY_OPTIONS.filter((o) => o.value !== 'custom').map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
                    </NativeSelect>
                  </div>
                  <Button type="submit">Create Requirements</Button>
                </div>
              ) : null}
            </Form>
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}
