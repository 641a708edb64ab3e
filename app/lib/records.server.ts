// The record kit: what every screen that lists and changes an account's rows
// does the same way, business and settings alike: read a page of a list,
// refuse a form that is invalid or altered, refuse a read-only role, create a
// row for the account, save, delete, and open a dialog from the URL. A new module's
// queries.server.ts and route use these, and never their own variants
// (docs/adding-a-module.md).
import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { PostgrestError, SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';
import { data } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { z } from 'zod';
import { requireUser, requireUserWith, type UserProfile } from '~/lib/auth.server';
import { ALTERED_FORM_MESSAGE, isAlteredForm, readFormData } from '~/lib/forms.server';
import { canWriteBusiness } from '~/lib/roles';
import type { Supabase } from '~/lib/supabase.server';
import type { ToastLink } from '~/lib/toast-link';
import { dataWithError, redirectWithCreated } from '~/lib/toast.server';
import { PAGE_SIZE, pageRange, readListQuery, type ListPage, type ListQuery } from '~/lib/list-query';

/** A table of the public schema: the generic helpers below take its name. */
export type TableName = keyof Database['public']['Tables'];

/**
 * The generic helpers name their table at run time, which the generated types
 * cannot follow (a union of tables has no one row type): they use the client
 * untyped, and their callers' rows are typed where they are read.
 */
const untyped = (supabase: Supabase) => supabase as unknown as SupabaseClient;

// ---- Reading a list -------------------------------------------------------

/** What the reader needs of a query: a supabase-js select (or RPC read) it orders and pages. */
interface PageableSelect<Row> {
  order(column: string, options: { ascending: boolean }): PageableSelect<Row>;
  range(from: number, to: number): PromiseLike<{ data: Row[] | null; count?: number | null; error: { message: string } | null }>;
}

/** A select over a table with a `status` column, which the list's status filter narrows. */
interface FilterableSelect<S extends string> {
  eq(column: 'status', value: S): this;
}

/**
 * The status filter of the URL (?status=) applied to a select. A text search
 * (?q=) is the list's search function (search_leads, search_quotes, ...),
 * which reads only the account's matches from its indexes (decision 037).
 */
export function filterList<S extends string, Q extends FilterableSelect<S>>(select: Q, query: ListQuery<S>): Q {
  return query.status ? select.eq('status', query.status) : select;
}

/**
 * The list with its screen summary's total (null when the summary failed to
 * load) in place of a count of its own, unless a search or filter narrowed it:
 * the summaries read rollups or one count, so the list need not count rows.
 */
export function withSummaryTotal<L extends { total: number | null }>(list: L, narrowed: boolean, summaryTotal: number | null): L {
  return narrowed ? list : { ...list, total: summaryTotal };
}

/**
 * The page of a list the URL asks for, newest first (the id breaks ties, so
 * pages never overlap or skip), plus one row to know whether a next page
 * exists. The total is the select's count when it asked for one
 * (`{ count: 'exact' }`), else null. A failed read is logged under `label`; the
 * page then shows the screen's 'Failed to fetch' text.
 */
export async function readList<Row, S extends string>(
  select: PageableSelect<Row>,
  query: ListQuery<S>,
  label: string,
): Promise<ListPage<Row, S>> {
  const { from, to } = pageRange(query.page);
  // The URL's column (readListSort allows only indexed ones), else newest
  // first; the id breaks ties so that pages neither repeat nor skip a row.
  const { key, dir } = query.sort ?? { key: 'created_at', dir: 'desc' };
  const ascending = dir === 'asc';
  const { data, count, error } = await select
    .order(key, { ascending })
    .order('id', { ascending })
    .range(from, to);
  if (error) console.error(`${label} failed to load: ${error.message}`);
  const rows = data ?? [];
  return {
    query,
    pageSize: PAGE_SIZE,
    rows: rows.slice(0, PAGE_SIZE),
    total: count ?? null,
    hasNext: rows.length > PAGE_SIZE,
    failed: error !== null,
  };
}

/**
 * A list with neither search nor filter (the settings lists): the page the URL
 * asks for (?page=N) of `table`'s rows the user may read, counted, newest
 * first or by one of `sortKeys` (?sort=&dir=).
 */
export function newestFirstPage<Row>(supabase: Supabase, table: TableName, columns: string, url: URL, sortKeys: readonly string[] = []) {
  const select = untyped(supabase).from(table).select(columns, { count: 'exact' }).returns<Row[]>();
  return readList<Row, never>(select, readListQuery(url, [], sortKeys), table);
}

// ---- Refusing a form ------------------------------------------------------

export type ToastArgs = Parameters<typeof dataWithError>[0];
type ToastText = Parameters<typeof dataWithError>[2];

interface FailedSubmission {
  status?: string;
  payload?: Record<string, unknown>;
  error?: Record<string, string[] | null> | null;
  reply: (options?: { hideFields?: string[]; formErrors?: string[] }) => SubmissionResult<string[]>;
}

export interface Refusal {
  /**
   * A toast beside the field errors, for an error an inline message does not
   * carry well (a JSON box's parser message, a missing file, an invitation's
   * password rules): docs/product-guide.md names which.
   */
  toast?: (errors: Record<string, string[] | null>) => ToastText | undefined;
  /** Fields never echoed back (a password, a file). */
  hideFields?: string[];
  /** The fields our form always sends right (HIDDEN_FIELDS), when it has more (a sign-in's redirectTo). */
  hiddenFields?: readonly string[];
}

/**
 * The one answer to a form that did not validate, on every screen: a 400 that
 * shows its errors inline, plus a toast where an inline error is not enough:
 * the screen's own (Refusal.toast), else ALTERED_FORM_MESSAGE for a form that
 * arrived altered or hand-made (it may have no field to show an error beside).
 */
export function refuseSubmission(args: ToastArgs, submission: FailedSubmission, refusal: Refusal = {}) {
  const result = submission.reply(refusal.hideFields ? { hideFields: refusal.hideFields } : undefined);
  const toast =
    refusal.toast?.(submission.error ?? {}) ??
    (isAlteredForm(submission, refusal.hiddenFields) ? ALTERED_FORM_MESSAGE : undefined);
  if (toast) return dataWithError(args, { result }, toast, { status: 400 });
  return data({ result }, { status: 400 });
}

/**
 * The one answer to a valid form whose write the database refused, on a
 * record's page: the database's message (else the screen's fallback) as a
 * toast, and above the form too with `inForm`; the form as it was sent; the
 * status statusOfRefusal gives its SQLSTATE.
 */
export function refuseWrite(
  args: ToastArgs,
  submission: Pick<FailedSubmission, 'reply'>,
  error: { message?: string; code?: string } | null,
  fallback: string,
  options: { inForm?: boolean } = {},
) {
  const message = serverMessage(error, fallback);
  const result = submission.reply(options.inForm ? { formErrors: [message] } : undefined);
  return dataWithError(args, { result }, message, { status: statusOfRefusal(error?.code) });
}

// ---- Who may write --------------------------------------------------------

export const READ_ONLY_MESSAGE = 'Your role can view these records but not change them';

/**
 * Who may change the business records (leads, clients, quotes): admins and
 * members. Auditors read them; their posts are refused here with a 403 before
 * the database is asked (its policies refuse them too). Clients and suppliers
 * never reach these screens (app-layout's outsiders middleware).
 * docs/product-guide.md holds the role matrix.
 */
export function refuseReadOnly(args: ToastArgs, profile: UserProfile | null) {
  // Without a users row the action answers 'User account not found' itself.
  if (!profile || canWriteBusiness(profile.role)) return null;
  return dataWithError(args, { result: undefined }, READ_ONLY_MESSAGE, { status: 403 });
}

// ---- Writing rows ---------------------------------------------------------

export const ACCOUNT_NOT_FOUND = 'User account not found';

/** What a create form's screen says (docs/product-guide.md gives each screen's texts). */
export interface CreateTexts {
  /** The success toast, on the list the form returns to. */
  created: string;
  /** The toast when the database gave no message of its own. */
  createFailed: string;
}

/** The success toast of a create that names the new record and links to it. */
export interface CreatedToast {
  message: string;
  link: ToastLink;
}

export interface CreateRecord<Schema extends z.ZodType, Created = unknown> {
  schema: Schema;
  /** The list the dialog belongs to; success lands there, dialog closed. */
  listPath: string;
  texts: CreateTexts;
  /** What the log calls a failed write: "client" → "client creation failed: ...". */
  noun: string;
  /**
   * The write, for the user's account (the database fills in whose: an
   * insert's account_id defaults to the caller's): an insert, or an RPC that
   * writes several rows in one transaction.
   */
  write: (supabase: Supabase, value: z.output<Schema>) => PromiseLike<{ data?: Created | null; error: { message: string; code?: string } | null }>;
  /** The toast naming the row the write returned, with its link; else texts.created. */
  createdToast?: (created: Created) => CreatedToast;
  /** A database refusal shown under a field as well: its message → the field's name. */
  fieldOfError?: Record<string, string>;
}

/**
 * A business screen's create action, start to end: the form valid, signed in,
 * allowed to write, the account known, then the write, answered by a redirect
 * to the list with the success toast, or the form kept with the database's
 * message (else the screen's failure text) as a toast and a 500.
 *
 * One backend round trip before the redirect: a valid form's write starts
 * alongside the users row. The database is what refuses a read-only role, a
 * deactivated user or an ended session (its policies ask for all three); the
 * users row then only chooses the message.
 */
export async function createRecord<Schema extends z.ZodType, Created = unknown>(
  args: ToastArgs,
  options: CreateRecord<Schema, Created>,
) {
  const submission = parseWithZod(await readFormData(args.request), { schema: options.schema });
  if (submission.status !== 'success') {
    const { profile } = await requireUser(args.request, args.context);
    return refuseReadOnly(args, profile) ?? refuseSubmission(args, submission);
  }
  const [{ profile }, { data: created, error }] = await requireUserWith(args.request, args.context, (supabase) =>
    options.write(supabase, submission.value),
  );
  const refused = refuseReadOnly(args, profile);
  if (refused) {
    if (!error) console.error(`${options.noun} written for a read-only role: the database's policies and canWriteBusiness disagree`);
    return refused;
  }
  if (!profile?.account_id) {
    return dataWithError(args, { result: submission.reply() }, ACCOUNT_NOT_FOUND, { status: 403 });
  }
  if (error) {
    console.error(`${options.noun} creation failed: ${error.message}`);
    const field = options.fieldOfError?.[error.message];
    const result = field ? submission.reply({ fieldErrors: { [field]: [error.message] } }) : submission.reply();
    return dataWithError(args, { result }, error.message || options.texts.createFailed, {
      status: statusOfRefusal(error.code),
    });
  }
  if (created && options.createdToast) {
    const toast = options.createdToast(created);
    return redirectWithCreated(options.listPath, toast.message, toast.link);
  }
  return redirectWithSuccess(options.listPath, options.texts.created);
}

/**
 * The HTTP status of a write the database refused, by its SQLSTATE: what the
 * visitor sent (bad data, a broken rule, a record that is not theirs to name)
 * is their error, not the server's. A refused privilege stays the server's:
 * the screens offer writes only to those the database lets write.
 */
export function statusOfRefusal(code: string | undefined): number {
  // A limit the database counts (program_limit_exceeded: resends an hour): try later.
  if (code === '54000') return 429;
  if (code === 'P0002' || code?.startsWith('22') || code?.startsWith('23')) return 400;
  return 500;
}

/** A database error as the server message of docs/product-guide.md ("the server message, else ..."). */
export function serverMessage(error: { message?: string; code?: string } | null | undefined, fallback: string): string {
  // The database's mail-safety checks (decision 039) name a constraint, not what to do.
  if (error?.code === '23514' && error.message?.includes('_no_control_chars')) return CONTROL_CHARS_MESSAGE;
  if (error?.code === '23514' && error.message?.includes('contacts_email_format')) return 'Enter a valid email address';
  return error?.message?.trim() || fallback;
}

/** A name, address or reason with a line break or another control character, refused by the database. */
export const CONTROL_CHARS_MESSAGE = 'Remove line breaks and other control characters';

/** Deletes one row by id; false when none was (the database refused, or it was gone). */
export async function deleteRow(supabase: Supabase, table: TableName, id: string): Promise<boolean> {
  const { data: deleted, error } = await untyped(supabase).from(table).delete().eq('id', id).select('id');
  return !error && deleted.length > 0;
}

/**
 * Updates the row `id` names, or inserts a new one for the user's account;
 * `ok` false when nothing was written, with the database's error if it gave one.
 */
export async function saveRow(
  supabase: Supabase,
  profile: UserProfile | null,
  table: TableName,
  id: string | undefined,
  values: Record<string, unknown>,
): Promise<{ ok: boolean; error: PostgrestError | null }> {
  const client = untyped(supabase);
  const saved = id
    ? await client.from(table).update(values).eq('id', id).select('id')
    : await client
        .from(table)
        .insert({ ...values, account_id: profile?.account_id, created_by: profile?.id })
        .select('id');
  return { ok: !saved.error && saved.data.length > 0, error: saved.error };
}

// ---- Dialogs from the URL -------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id from the URL (`?edit=<id>`) worth asking the database about: a malformed one would only be a 400 from it. */
export function isUuid(value: string | null): value is string {
  return value !== null && UUID.test(value);
}

/**
 * Which dialog a list's URL opens (`?new`, `?edit=<id>`, `?delete=<id>`);
 * an edit or a delete only when its row was found.
 */
export function listDialog(url: URL, found: boolean): 'new' | 'edit' | 'delete' | null {
  if (url.searchParams.has('new')) return 'new';
  if (url.searchParams.has('edit') && found) return 'edit';
  if (url.searchParams.has('delete') && found) return 'delete';
  return null;
}

// ---- Answering a save or a delete ------------------------------------------

/** What a list's create-or-edit and delete dialogs say (docs/product-guide.md gives each screen's). */
export interface RecordTexts {
  created: string;
  updated: string;
  deleted: string;
  saveFailed: string;
  deleteFailed: string;
}

/**
 * Deletes the row a delete dialog names and answers: back to the list with the
 * screen's toast, or a 400 with its failure toast (the database refused, or
 * the row was gone).
 */
export async function deleteAndAnswer(
  args: ToastArgs,
  supabase: Supabase,
  row: { table: TableName; id: string; listPath: string },
  texts: Pick<RecordTexts, 'deleted' | 'deleteFailed'>,
  reply: () => SubmissionResult<string[]>,
) {
  if (!(await deleteRow(supabase, row.table, row.id))) {
    return dataWithError(args, { result: reply() }, texts.deleteFailed, { status: 400 });
  }
  return redirectWithSuccess(row.listPath, texts.deleted);
}

/**
 * Saves what a create-or-edit dialog posted (saveRow) and answers: back to
 * the list with 'created' or 'updated', or a 400 with the form as typed and
 * the database's message, else the screen's failure text.
 */
export async function saveAndAnswer(
  args: ToastArgs,
  supabase: Supabase,
  profile: UserProfile | null,
  row: { table: TableName; id: string | undefined; listPath: string; values: Record<string, unknown> },
  texts: Pick<RecordTexts, 'created' | 'updated' | 'saveFailed'>,
  reply: () => SubmissionResult<string[]>,
) {
  const saved = await saveRow(supabase, profile, row.table, row.id, row.values);
  if (!saved.ok) {
    return dataWithError(args, { result: reply() }, serverMessage(saved.error, texts.saveFailed), { status: 400 });
  }
  return redirectWithSuccess(row.listPath, row.id ? texts.updated : texts.created);
}
