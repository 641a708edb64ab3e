import { Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/settings.users';
import { AccessRestricted } from '~/components/settings/access-restricted';
import { ConfirmDialog } from '~/components/settings/confirm-dialog';
import { EmptyState } from '~/components/settings/empty-state';
import { ListPager } from '~/components/list-pager';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { SetActiveButton } from '~/components/settings/row-actions';
import { SettingsHeader } from '~/components/settings/settings-header';
import { EditUserForm, InviteUserForm, type EditUserValues, type InviteValues } from './user-forms';
import { StatusBadge } from '~/components/status-badge';
import { Badge } from '~/components/ui/badge';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { callFunction } from '~/lib/functions.server';
import { formatShortDate } from '~/lib/dates';
import { listHref, withDialog } from '~/lib/list-query';
import { DEFAULT_INVITE_ROLE, roleLabel } from '~/lib/roles';
import { roleTone } from '~/lib/tones';
import { USER_TEXTS, userActionSchema } from './schema';
import { readAdminForm, requireSettingsUserWith } from '~/lib/settings.server';
import { isUuid, newestFirstPage, refuseSubmission } from '~/lib/records.server';
import { dataWithError, dataWithInfo } from '~/lib/toast.server';
import { CopyableLink } from '~/components/copyable-link';
import { Button } from '~/components/ui/button';
import { Form } from 'react-router';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Users') }];

const LIST = '/settings/users';

interface UserRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: string;
  is_active: boolean;
  created_at: string;
  last_login_at: string | null;
}

interface InvitationRow {
  id: string;
  email: string;
  role: string;
  first_name: string | null;
  last_name: string | null;
  expires_at: string;
  created_at: string;
}

const USER_COLUMNS = 'id, email, first_name, last_name, role, is_active, created_at, last_login_at';
/** The columns the list sorts by: each has an account-first index (migration 20261202800001). */
const USER_SORTS = ['email', 'created_at'];
const NEW_INVITE: InviteValues = { email: '', role: DEFAULT_INVITE_ROLE, first_name: '', last_name: '' };

export async function loader({ request, context, url }: Route.LoaderArgs) {
  // The list, the invitations and the user an edit names, alongside the users
  // row (one round trip); what a role may not read the database does not give.
  const wanted = url.searchParams.get('edit');
  const [{ profile, isAdmin, canRead }, [users, invitations, named]] = await requireSettingsUserWith(request, context, (supabase) =>
    Promise.all([
      newestFirstPage<UserRow>(supabase, 'users', USER_COLUMNS, url, USER_SORTS),
      // Pending: not accepted and not expired (docs/product-guide.md). Admins only: an
      // invitation carries its token, so the database shows auditors none.
      supabase
        .from('user_invitations')
        .select('id, email, role, first_name, last_name, expires_at, created_at')
        .is('accepted_at', null)
        .gt('expires_at', new Date().toISOString())
        .order('created_at', { ascending: false })
        .limit(100)
        .returns<InvitationRow[]>(),
      isUuid(wanted) ? supabase.from('users').select(USER_COLUMNS).eq('id', wanted).maybeSingle<UserRow>() : null,
    ]),
  );
  if (!canRead) return { access: 'restricted' as const };
  if (invitations.error) console.error(`invitations: ${invitations.error.message}`);

  // Auditors read the list; inviting and editing are admins'.
  const one = isAdmin ? (named?.data ?? null) : null;
  const editing: EditUserValues | null = one
    ? { id: one.id, email: one.email, role: one.role, first_name: one.first_name ?? '', last_name: one.last_name ?? '' }
    : null;
  const revokeId = url.searchParams.get('revoke');
  const revoking = isAdmin ? ((invitations.data ?? []).find((invitation) => invitation.id === revokeId) ?? null) : null;

  return {
    access: 'granted' as const,
    readOnly: !isAdmin,
    selfId: profile?.id ?? null,
    users,
    invitations: invitations.data ?? [],
    error: users.failed || invitations.error ? USER_TEXTS.loadFailed : null,
    mode: isAdmin && url.searchParams.has('invite')
      ? ('invite' as const)
      : editing
        ? ('edit' as const)
        : revoking
          ? ('revoke' as const)
          : null,
    editing,
    revoking,
  };
}

export async function action(args: Route.ActionArgs) {
  const read = await readAdminForm(args, userActionSchema, USER_TEXTS.restricted);
  if ('refused' in read) return read.refused;
  const { user, submission } = read;
  const { supabase } = user;
  if (submission.status !== 'success') return refuseSubmission(args, submission);
  const form = submission.value;
  const failed = (message: string, status = 400) =>
    dataWithError(args, { result: submission.reply() }, message, { status });

  switch (form.intent) {
    case 'invite': {
      // The function checks the caller is an admin, writes the invitation as them and mails the link.
      const result = await callFunction(supabase, 'invite-user', {
        email: form.email,
        role: form.role,
        first_name: form.first_name ?? null,
        last_name: form.last_name ?? null,
      });
      if (!result.ok) return failed(result.message ?? (result.answered ? USER_TEXTS.inviteFailed : USER_TEXTS.saveFailed));
      return redirectWithSuccess(LIST, { message: USER_TEXTS.invitedTitle, description: USER_TEXTS.invited(form.email) });
    }
    case 'update': {
      const result = await callFunction(supabase, 'manage-user-role', {
        user_id: form.id,
        new_role: form.role,
        first_name: form.first_name ?? null,
        last_name: form.last_name ?? null,
      });
      if (!result.ok) return failed(result.message ?? (result.answered ? USER_TEXTS.updateFailed : USER_TEXTS.saveFailed));
      return redirectWithSuccess(LIST, USER_TEXTS.updated);
    }
    case 'set-active': {
      // The database allows only an admin of the same account, never on themselves;
      // deactivation also bans the auth user and ends their sessions (a trigger).
      const { data: updated, error } = await supabase
        .from('users')
        .update({ is_active: form.active })
        .eq('id', form.id)
        .select('id');
      if (error || updated.length === 0) {
        if (error) console.error(`users: status change refused: ${error.message}`);
        return failed(USER_TEXTS.statusFailed, error?.code === '42501' ? 403 : 400);
      }
      return redirectWithSuccess(LIST, form.active ? USER_TEXTS.activated : USER_TEXTS.deactivated);
    }
    case 'resend':
    case 'copy-link': {
      // A new token (the database keeps only the hash of the old one): mailed, or handed to the admin.
      const resend = form.intent === 'resend';
      const result = await callFunction<{ invitation: { id: string; email: string }; link?: string }>(
        supabase,
        'renew-invitation',
        { invitation_id: form.id, send: resend },
      );
      if (!result.ok) return failed(result.message ?? (resend ? USER_TEXTS.resendFailed : USER_TEXTS.linkFailed));
      const { invitation, link } = result.data;
      if (resend) return redirectWithSuccess(LIST, { message: USER_TEXTS.invitedTitle, description: USER_TEXTS.resent(invitation.email) });
      return dataWithInfo(args, { invitationLink: { id: invitation.id, email: invitation.email, link: link ?? '' } }, USER_TEXTS.linkReady);
    }
    case 'revoke': {
      const { data: deleted, error } = await supabase
        .from('user_invitations')
        .delete()
        .eq('id', form.id)
        .is('accepted_at', null)
        .select('id');
      if (error || deleted.length === 0) return failed(USER_TEXTS.revokeFailed);
      return redirectWithSuccess(LIST, USER_TEXTS.revoked);
    }
  }
}

function fullName(person: { first_name: string | null; last_name: string | null }): string {
  return [person.first_name, person.last_name].filter(Boolean).join(' ');
}

/** Resend or Copy Link: a plain post to the list, labelled with the invitee for a screen reader. */
function InvitationButton({ id, intent, label, email }: { id: string; intent: string; label: string; email: string }) {
  return (
    <Form method="post" action={LIST} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" variant="outline" size="sm" aria-label={`${label}: invitation of ${email}`}>
        {label}
      </Button>
    </Form>
  );
}

function RoleBadge({ role }: { role: string }) {
  return (
    <Badge variant={roleTone(role)} data-role={role}>
      {roleLabel(role)}
    </Badge>
  );
}

/** The users table's columns: the last holds Activate/Deactivate for an admin (not on their own row). */
function userColumns(selfId: string | null, readOnly: boolean): RecordColumn<UserRow>[] {
  const columns: RecordColumn<UserRow>[] = [
    { id: 'name', header: 'Name', cell: (user) => fullName(user) || user.email, className: 'md:max-w-56' },
    { id: 'email', header: 'Email', cell: (user) => user.email, sort: { key: 'email' }, className: 'max-w-64 truncate text-muted-foreground' },
    { id: 'role', header: 'Role', cell: (user) => <RoleBadge role={user.role} /> },
    { id: 'status', header: 'Status', cell: (user) => <StatusBadge status={user.is_active ? 'active' : 'inactive'} />, phone: true },
    {
      id: 'joined',
      header: 'Joined',
      cell: (user) => <time dateTime={user.created_at}>{formatShortDate(user.created_at)}</time>,
      sort: { key: 'created_at', first: 'desc' },
      className: 'whitespace-nowrap text-muted-foreground',
    },
  ];
  if (readOnly) return columns;
  const name = (user: UserRow) => fullName(user) || user.email;
  return [
    ...columns,
    {
      id: 'actions',
      header: 'Actions',
      cell: (user) =>
        user.id === selfId ? (
          <span className="text-xs text-muted-foreground">You</span>
        ) : (
          <SetActiveButton action={LIST} id={user.id} name={name(user)} active={user.is_active} className="h-7" />
        ),
      interactive: true,
      className: 'w-px text-right',
    },
  ];
}

export default function SettingsUsers({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.access === 'restricted') {
    return (
      <>
        <SettingsHeader title="Users" />
        <AccessRestricted title={USER_TEXTS.restrictedTitle} message={USER_TEXTS.restricted} />
      </>
    );
  }
  const { users: list, invitations, error, mode, editing, revoking, selfId, readOnly } = loaderData;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  const shownLink = actionData && 'invitationLink' in actionData ? actionData.invitationLink : null;
  return (
    <>
      <SettingsHeader
        title="Users"
        description="The people of your account, their roles and invitations."
        actions={
          readOnly ? null : (
            <Link to="?invite" preventScrollReset className={buttonClasses()}>
              Invite User
            </Link>
          )
        }
      />
      {error ? (
        <EmptyState title={error}>Please try again in a moment.</EmptyState>
      ) : (
        <Card>
          <CardContent className="pt-4">
            <RecordTable
              caption="Users"
              pathname={LIST}
              query={list.query}
              rows={list.rows}
              columns={userColumns(selfId, readOnly)}
              rowKey={(user) => user.id}
              // No page of its own: an admin's row opens the user's edit dialog (not their own).
              href={(user) => (readOnly || user.id === selfId ? null : withDialog(listHref(LIST, list.query, {}), `edit=${user.id}`))}
              linkLabel={(user) => `Edit ${fullName(user) || user.email}`}
              phoneLine={(user) => user.email}
            />
          </CardContent>
        </Card>
      )}
      <ListPager list={list} pathname={LIST} noun="users" />

      {/* The database shows invitations (and their tokens) to admins only. */}
      {readOnly ? null : (
        <section aria-labelledby="pending-invitations" className="mt-8">
          <h3 id="pending-invitations" className="mb-3 text-lg font-semibold">
            Pending Invitations
          </h3>
          {invitations.length === 0 ? (
            <EmptyState title="No pending invitations" />
          ) : (
            <ul className="grid gap-3" aria-label="Pending invitations">
              {invitations.map((invitation) => (
                <li key={invitation.id}>
                  <Card>
                    <CardContent className="flex flex-wrap items-center justify-between gap-3 pt-6">
                      <div className="grid gap-1">
                        <div className="flex flex-wrap items-center gap-2">
                          <span className="font-medium">{invitation.email}</span>
                          <RoleBadge role={invitation.role} />
                        </div>
                        {fullName(invitation) ? <p className="text-sm text-muted-foreground">{fullName(invitation)}</p> : null}
                        <p className="text-xs text-muted-foreground">
                          Expires <time dateTime={invitation.expires_at}>{formatShortDate(invitation.expires_at)}</time>
                        </p>
                      </div>
                      <div className="flex flex-wrap gap-2">
                        <InvitationButton id={invitation.id} intent="resend" label="Resend" email={invitation.email} />
                        <InvitationButton id={invitation.id} intent="copy-link" label="Copy Link" email={invitation.email} />
                        <Link
                          to={`?revoke=${invitation.id}`}
                          preventScrollReset
                          className={buttonClasses('ghost', 'sm')}
                          aria-label={`Revoke the invitation of ${invitation.email}`}
                        >
                          Revoke
                        </Link>
                      </div>
                      {shownLink?.id === invitation.id ? (
                        <CopyableLink
                          id={`invitation-link-${shownLink.id}`}
                          label={USER_TEXTS.linkLabel(shownLink.email)}
                          note={USER_TEXTS.linkNote}
                          link={shownLink.link}
                          copyOnArrival
                          className="w-full"
                        />
                      ) : null}
                    </CardContent>
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <UrlDialog open={mode === 'invite'} closeTo={LIST} title="Invite User">
        {mode === 'invite' ? <InviteUserForm values={NEW_INVITE} lastResult={lastResult} closeTo={LIST} /> : null}
      </UrlDialog>
      <UrlDialog open={mode === 'edit'} closeTo={LIST} title="Edit User">
        {mode === 'edit' && editing ? (
          <EditUserForm key={editing.id} values={editing} lastResult={lastResult} closeTo={LIST} />
        ) : null}
      </UrlDialog>
      <ConfirmDialog
        open={mode === 'revoke'}
        closeTo={LIST}
        title="Revoke Invitation"
        description={`Revoke the invitation of ${revoking?.email ?? ''}? Its link will stop working.`}
        intent="revoke"
        fields={{ id: revoking?.id ?? '' }}
        confirmLabel="Revoke"
        busyLabel="Revoking..."
      />
    </>
  );
}
