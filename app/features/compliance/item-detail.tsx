// A compliance item's page (issue 37): its facts, the reviews due
// (occurrences), its reviews (locked: a later one may supersede an earlier
// one), its evidence (every version, with effective date and expiry), the
// trail from the audit rows with its CSV export and the audit package. Writers
// record reviews, add evidence, edit the item (its schedule too: the open
// reviews due are regenerated, past ones stay) and delete an item never
// reviewed, in dialogs opened by URL (?edit, ?delete); auditors read. Works
// without JavaScript.
import { env } from 'cloudflare:workers';
import { DeleteRecordDialog } from '~/components/records/delete-record-dialog';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import { redirectWithError, redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/item-detail';
import { SectionHeading } from '~/components/page-header';
import { FactsPanel } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { Timeline } from '~/components/records/timeline';
import { StatusBadge } from '~/components/status-badge';
import { buttonClasses } from '~/components/ui/button';
import { UrlDialog } from '~/components/url-dialog';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { formatShortDate } from '~/lib/dates';
import { pageTitle } from '~/lib/page-title';
import { recordAction, recordDialog, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { fieldErrorResult } from '~/lib/simulated-upload.server';
import { readFormOrUpload } from './form-data.server';
import { dataWithError } from '~/lib/toast.server';
import { kickJobRunner } from '~/jobs/kick.server';
import { inlinePackageLimit, packageByMail } from './package-plan';
import { evidenceType, storeEvidence } from './evidence.server';
import { EditItemForm, EvidenceForm, ReviewForm } from './item-forms';
import { deleteComplianceItem, loadComplianceItem, mapControl, recordReview, unmapControl, updateComplianceItem } from './queries.server';
import {
  COMPLIANCE_CATEGORY_LABELS, EVIDENCE_TOO_LARGE, EVIDENCE_WRONG_TYPE, FREQUENCY_LABELS, itemActionSchema, MAX_EVIDENCE_BYTES, RISK_LEVEL_LABELS,
  type ComplianceCategory, type Frequency, type RiskLevel,
} from './schema';
import { COMPLIANCE_DETAIL_TEXTS as TEXTS } from './texts';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? pageTitle(loaderData.item.title, 'Compliance') : pageTitle(TEXTS.notFound) },
];

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const editing = url.searchParams.has('edit');
  const { profile, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, (supabase, id) =>
    loadComplianceItem(supabase, id, { owners: editing }));
  const canWrite = canWriteBusiness(profile?.role);
  // Delete is offered only for an item never reviewed (the database keeps a reviewed one).
  const dialog = recordDialog(url, canWrite);
  return {
    ...found, canWrite, dialog: dialog === 'delete' && found.reviews.length > 0 ? null : dialog, today: new Date().toISOString().slice(0, 10),
    // Above the inline limit the package is built by the jobs runner and mailed (package.server.ts).
    packageByMail: packageByMail(found.evidence, inlinePackageLimit(env)),
  };
}

export async function action(args: Route.ActionArgs) {
  // Asking for the audit package is a read: auditors may (recordAction answers a read-only role's post with a refusal).
  if (await asksForPackage(args.request)) return requestPackage(args);
  return recordAction(args, async () => {
    const { supabase, id, page } = await recordWriter(args, '/compliance', TEXTS.notFound);
    const read = await readFormOrUpload(args.request, MAX_EVIDENCE_BYTES);
    if (!read.ok) {
      const message = read.reason === 'too-large' ? EVIDENCE_TOO_LARGE : 'Please select a file to upload';
      return dataWithError(args, { result: fieldErrorResult('file', message) }, message, { status: read.reason === 'too-large' ? 413 : 400 });
    }
    const submission = parseWithZod(read.formData, { schema: itemActionSchema });
    if (submission.status !== 'success') return refuseSubmission(args, submission, { hideFields: ['file', 'evidence_file'] });
    const form = submission.value;
    if (form.intent === 'update') {
      const { data: saved, error } = await updateComplianceItem(supabase, id, form);
      if (error?.code === '23503') {
        return dataWithError(args, { result: submission.reply({ fieldErrors: { owner_id: [TEXTS.ownerNotStaff] } }) }, TEXTS.ownerNotStaff, { status: 400 });
      }
      if (error || !saved) {
        if (error && error.code !== '23514') console.error(`compliance item update failed: ${error.message}`);
        const message = !error ? TEXTS.notFound : error.code === '23514' ? serverMessage(error, TEXTS.saveFailed) : TEXTS.saveFailed;
        return dataWithError(args, { result: submission.reply({ formErrors: [message] }) }, message, { status: error ? 400 : 404 });
      }
      return redirectWithSuccess(page, TEXTS.saved);
    }
    if (form.intent === 'delete') {
      const { data: deleted, error } = await deleteComplianceItem(supabase, id);
      // No row: reviewed (row-level security keeps it as history), or gone.
      if (error || !deleted) {
        if (error) console.error(`compliance item delete failed: ${error.message}`);
        const { data: kept } = error ? { data: null } : await supabase.from('compliance_items').select('id').eq('id', id).maybeSingle();
        const [message, status] = error ? [TEXTS.deleteFailed, 500] : kept ? [TEXTS.reviewedIsHistory, 409] : [TEXTS.notFound, 404];
        return dataWithError(args, { result: submission.reply({ formErrors: [message] }) }, message, { status });
      }
      // Its evidence files were queued for removal with it (the database): the runner removes them now.
      if (deleted) kickJobRunner(args.context);
      return redirectWithSuccess('/compliance', TEXTS.deleted);
    }
    if (form.intent === 'package') return requestPackage(args);
    if (form.intent === 'review') {
      // Its evidence, if any, is checked before the review is saved (a saved review is locked).
      const evidenceBytes = form.evidence_file ? new Uint8Array(await form.evidence_file.arrayBuffer()) : null;
      if (form.evidence_file && evidenceBytes && !evidenceType(form.evidence_file.name, evidenceBytes)) {
        return dataWithError(args, { result: submission.reply({ fieldErrors: { evidence_file: [EVIDENCE_WRONG_TYPE] }, hideFields: ['evidence_file'] }) }, EVIDENCE_WRONG_TYPE, { status: 400 });
      }
      const { data: saved, error } = await recordReview(supabase, id, form);
      if (error?.code === '22023') {
        const field = error.hint === 'outcome' || error.hint === 'notes' || error.hint === 'supersedes' ? error.hint : 'reviewed_on';
        return dataWithError(args, { result: submission.reply({ fieldErrors: { [field]: [error.message] } }) }, error.message, { status: 400 });
      }
      if (error) {
        console.error(`compliance review failed: ${error.message}`);
        return dataWithError(args, { result: submission.reply() }, error.code === 'P0002' ? TEXTS.notFound : TEXTS.reviewFailed, {
          status: error.code === 'P0002' ? 404 : 500,
        });
      }
      if (form.evidence_file && evidenceBytes && saved) {
        const { data: me } = await supabase.rpc('current_account_id');
        const stored = await storeEvidence(supabase, {
          accountId: String(me ?? ''), itemId: id, reviewId: (saved as { id: string }).id, title: form.evidence_title ?? form.evidence_file.name,
          fileName: form.evidence_file.name, bytes: evidenceBytes, effectiveOn: form.reviewed_on, expiresOn: form.evidence_expires_on ?? null,
        });
        // The review stands (locked); the file can be added again under Evidence.
        if (!stored.ok) return redirectWithError(page, `${TEXTS.reviewRecorded}, but ${stored.message.toLowerCase()}`);
        return redirectWithSuccess(page, `${TEXTS.reviewRecorded} with its evidence (version ${stored.version})`);
      }
      return redirectWithSuccess(page, TEXTS.reviewRecorded);
    }
    if (form.intent === 'map' || form.intent === 'unmap') {
      const { data, error } = form.intent === 'map' ? await mapControl(supabase, id, form.control_id) : await unmapControl(supabase, id, form.control_id);
      if (!error && (!data || (Array.isArray(data) && data.length === 0))) {
        return dataWithError(args, { result: submission.reply() }, form.intent === 'map' ? TEXTS.mapFailed : 'This control is not mapped to this requirement', { status: 404 });
      }
      if (error) {
        const message = error.code === '23505' ? 'This control is already mapped' : error.code === '23503' ? 'Control not found' : TEXTS.mapFailed;
        if (error.code !== '23505' && error.code !== '23503') console.error(`compliance mapping failed: ${error.message}`);
        return dataWithError(args, { result: submission.reply() }, message, { status: error.code === '23505' ? 409 : 400 });
      }
      return redirectWithSuccess(page, form.intent === 'map' ? TEXTS.mapped : TEXTS.unmapped);
    }
    const { data: me } = await supabase.rpc('current_account_id');
    const stored = await storeEvidence(supabase, {
      accountId: String(me ?? ''), itemId: id, reviewId: form.review_id ?? null, title: form.title, fileName: form.file.name,
      bytes: new Uint8Array(await form.file.arrayBuffer()), effectiveOn: form.effective_on, expiresOn: form.expires_on ?? null,
    });
    if (!stored.ok) {
      const result = stored.field === 'file' ? submission.reply({ fieldErrors: { file: [stored.message] }, hideFields: ['file'] }) : submission.reply({ hideFields: ['file'] });
      return dataWithError(args, { result }, stored.message, { status: stored.status ?? (stored.field === 'file' ? 400 : 500) });
    }
    return redirectWithSuccess(page, `${TEXTS.evidenceAdded} (version ${stored.version})`);
  });
}

/** A small form post whose intent is 'package' (the package form has no other field). */
async function asksForPackage(request: Request): Promise<boolean> {
  if (!request.headers.get('Content-Type')?.startsWith('application/x-www-form-urlencoded')) return false;
  const length = Number(request.headers.get('Content-Length') ?? 'NaN');
  if (!(length <= 1024)) return false;
  // Exactly one intent: anything else goes to the schema, which refuses it.
  const intents = (await request.clone().formData()).getAll('intent');
  return intents.length === 1 && intents[0] === 'package';
}

/** Queues the item's audit package for the runner (once a minute per person) and says it will be emailed. */
async function requestPackage(args: Route.ActionArgs) {
  const { supabase, id, page } = await recordWriter(args, '/compliance', TEXTS.notFound);
  const { data: queued, error } = await supabase.rpc('request_compliance_package', { p_item_id: id });
  if (error) {
    const [message, status] = error.code === 'P0002' ? [TEXTS.notFound, 404] : error.code === '42501' ? [error.message, 403] : [TEXTS.packageRequestFailed, 500];
    if (status === 500) console.error(`audit package request failed: ${error.message}`);
    return dataWithError(args, { result: fieldErrorResult('form', message) }, message, { status });
  }
  if (queued) kickJobRunner(args.context);
  return redirectWithSuccess(page, queued ? TEXTS.packageRequested : TEXTS.packageAlreadyRequested);
}

export default function ComplianceItemPage({ loaderData, actionData }: Route.ComponentProps) {
  const { item, occurrences, reviews, evidence, history, canWrite, today, mapped, controls, owners, dialog, packageByMail: byMail } = loaderData;
  const page = `/compliance/${item.id}`;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  const intent = (lastResult?.initialValue as { intent?: unknown } | undefined)?.intent;
  // A refused map or unmap (its only field is hidden): said under the controls.
  const mapErrors = intent === 'map' || intent === 'unmap' ? [...new Set(Object.values(lastResult?.error ?? {}).flatMap((list) => list ?? []))] : [];
  const supersededBy = new Map(reviews.filter((r) => r.supersedes_id).map((r) => [r.supersedes_id as string, r.id]));
  const owner = item.owner ? [item.owner.first_name, item.owner.last_name].filter(Boolean).join(' ') || item.owner.email : null;
  return (
    <RecordPage
      back={{ to: '/compliance', label: TEXTS.back }}
      title={item.title}
      status={<StatusBadge status={item.status} />}
      subtitle={`${COMPLIANCE_CATEGORY_LABELS[item.category as ComplianceCategory] ?? item.category} · ${RISK_LEVEL_LABELS[item.risk_level as RiskLevel] ?? item.risk_level} risk`}
      actions={
        <>
          {canWrite ? (
            <Link to="?edit" preventScrollReset className={buttonClasses('outline')}>
              Edit
            </Link>
          ) : null}
          {canWrite && reviews.length === 0 ? (
            <Link to="?delete" preventScrollReset className={buttonClasses('ghost')}>
              Delete
            </Link>
          ) : null}
          <a href={`${page}/trail.csv`} className={buttonClasses('outline')} download>
            {TEXTS.exportCsv}
          </a>
          {byMail ? (
            <Form method="post" action={page}>
              <input type="hidden" name="intent" value="package" />
              <button type="submit" className={buttonClasses('outline')}>{TEXTS.emailPackage}</button>
            </Form>
          ) : (
            <a href={`${page}/package.zip`} className={buttonClasses('outline')} download>
              {TEXTS.auditPackage}
            </a>
          )}
        </>
      }
      dialogs={
        <>
          <UrlDialog open={dialog === 'edit'} closeTo={page} title={TEXTS.editTitle} description={TEXTS.editDescription}>
            {dialog === 'edit' ? (
              <EditItemForm
                action={`${page}?edit`}
                closeTo={page}
                owners={owners}
                lastResult={intent === 'update' ? lastResult : undefined}
                defaultValue={{
                  title: item.title,
                  category: item.category,
                  risk_level: item.risk_level,
                  responsible_team: item.responsible_team,
                  owner_id: item.owner_id ?? '',
                  frequency: item.frequency,
                  interval_months: item.interval_months === null ? '' : String(item.interval_months),
                  first_review_date: item.first_review_date,
                  description: item.description,
                  requirements: item.requirements ?? '',
                }}
              />
            ) : null}
          </UrlDialog>
          <DeleteRecordDialog open={dialog === 'delete'} closeTo={page} title={TEXTS.deleteTitle} what={`the requirement "${item.title}"`} />
        </>
      }
      facts={
        <>
          <FactsPanel
            facts={[
              { label: 'Responsible team', value: item.responsible_team },
              { label: 'Owner', value: owner },
              { label: 'Frequency', value: item.frequency === 'custom' ? `Every ${item.interval_months} months` : FREQUENCY_LABELS[item.frequency as Frequency] },
              { label: 'Next review', value: formatShortDate(item.next_review_date) },
              { label: 'First review', value: formatShortDate(item.first_review_date) },
              { label: 'Evidence', value: item.evidence_expired ? <span className="font-medium text-destructive">{TEXTS.evidenceExpired}: add a new version</span> : null },
              { label: 'Description', value: <span className="whitespace-pre-line">{item.description}</span> },
              { label: 'Requirements', value: item.requirements ? <span className="whitespace-pre-line">{item.requirements}</span> : null },
            ]}
          />
          {byMail ? <p className="text-sm text-muted-foreground">{TEXTS.packageByMail}</p> : null}
          {canWrite ? (
            <Card>
              <CardHeader>
                <SectionHeading>{TEXTS.recordReview}</SectionHeading>
              </CardHeader>
              <CardContent>
                <ReviewForm
                  action={page}
                  today={today}
                  lastResult={intent === 'review' ? lastResult : undefined}
                  reviews={reviews.filter((r) => !supersededBy.has(r.id)).map((r) => ({ id: r.id, label: `${formatShortDate(r.reviewed_on)} · ${r.outcome}` }))}
                />
              </CardContent>
            </Card>
          ) : (
            <p className="text-sm text-muted-foreground">{TEXTS.readOnly}</p>
          )}
        </>
      }
    >
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <SectionHeading>{TEXTS.occurrences}</SectionHeading>
          </CardHeader>
          <CardContent>
            <ul className="grid grid-cols-2 gap-1 text-sm sm:grid-cols-4" aria-label={TEXTS.occurrences}>
              {occurrences.map((o) => (
                <li key={o.id} className={o.status === 'done' ? 'text-muted-foreground line-through' : o.due_on < today ? 'font-medium text-destructive' : ''}>
                  <time dateTime={o.due_on}>{formatShortDate(o.due_on)}</time>
                  {o.status === 'done' ? ' (done)' : o.due_on < today ? ' (overdue)' : ''}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <SectionHeading>{TEXTS.reviews}</SectionHeading>
          </CardHeader>
          <CardContent>
            {reviews.length === 0 ? <p className="text-sm text-muted-foreground">{TEXTS.noReviews}</p> : null}
            <ul className="grid gap-3" aria-label={TEXTS.reviews}>
              {reviews.map((r) => (
                <li key={r.id} className="grid gap-1 rounded-lg border border-border p-3 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <time dateTime={r.reviewed_on} className="font-medium">{formatShortDate(r.reviewed_on)}</time>
                    <StatusBadge status={r.outcome} />
                    {supersededBy.has(r.id) ? <span className="text-muted-foreground">{TEXTS.superseded}</span> : null}
                  </div>
                  {r.notes ? <p className="whitespace-pre-line">{r.notes}</p> : null}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <SectionHeading>{TEXTS.evidence}</SectionHeading>
          </CardHeader>
          <CardContent className="grid gap-4">
            {evidence.length === 0 ? <p className="text-sm text-muted-foreground">{TEXTS.noEvidence}</p> : null}
            <ul className="grid gap-2 text-sm" aria-label={TEXTS.evidence}>
              {evidence.map((e) => (
                <li key={e.id} className="flex flex-wrap gap-x-3">
                  <span className="font-medium">{e.title}</span>
                  <span>v{e.version}</span>
                  <a href={`${page}/evidence/${e.id}`} className="text-muted-foreground underline underline-offset-2" download>
                    {e.file_name}
                  </a>
                  <span>from {formatShortDate(e.effective_on)}</span>
                  {e.expires_on ? (
                    <span className={e.expires_on <= today ? 'text-destructive' : ''}>
                      {e.expires_on <= today ? 'expired' : 'expires'} {formatShortDate(e.expires_on)}
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
            {canWrite ? <EvidenceForm action={page} today={today} lastResult={intent === 'evidence' ? lastResult : undefined} /> : null}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <SectionHeading>{TEXTS.controls}</SectionHeading>
          </CardHeader>
          <CardContent className="grid gap-3">
            {mapErrors.length > 0 ? (
              <div id="map-control-error" role="alert" className="text-sm text-destructive">
                {mapErrors.map((error) => (
                  <p key={error}>{error}</p>
                ))}
              </div>
            ) : null}
            {mapped.length === 0 ? <p className="text-sm text-muted-foreground">{TEXTS.noControls}</p> : null}
            <ul className="grid gap-1 text-sm" aria-label={TEXTS.controls}>
              {mapped.map((c) => (
                <li key={c.id} className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{c.label}</span> {c.title}
                  {canWrite ? (
                    <Form method="post" action={page}>
                      <input type="hidden" name="intent" value="unmap" />
                      <input type="hidden" name="control_id" value={c.id} />
                      <button type="submit" className="text-sm underline">Unmap {c.label}</button>
                    </Form>
                  ) : null}
                </li>
              ))}
            </ul>
            {canWrite && controls.length > 0 ? (
              <Form method="post" action={page} className="flex flex-col gap-2 sm:flex-row sm:items-end">
                <input type="hidden" name="intent" value="map" />
                <div className="grid gap-1">
                  <label htmlFor="map-control" className="text-sm font-medium">Control it satisfies</label>
                  <select id="map-control" name="control_id" className="h-9 rounded-md border border-input bg-background px-2 text-sm">
                    {controls.map((c) => <option key={c.id} value={c.id}>{c.label} {c.title}</option>)}
                  </select>
                </div>
                <button type="submit" className={buttonClasses('outline')}>{TEXTS.mapControl}</button>
              </Form>
            ) : null}
            <p className="text-sm"><Link to="/compliance/catalogues" className="underline">Control catalogues</Link></p>
          </CardContent>
        </Card>
        <Timeline moments={[{ label: 'Created', at: item.created_at, covers: ['compliance_item_created'] }]} entries={history.entries} failed={history.failed} />
        {/* The page reads the last 100 rows of the trail (record_history); the CSV has every one. */}
        {history.entries.length >= 100 ? <p className="text-sm text-muted-foreground">{TEXTS.trailCut}</p> : null}
        <p className="text-sm">
          <Link to="/compliance" className="underline">{TEXTS.back}</Link>
        </p>
      </div>
    </RecordPage>
  );
}
