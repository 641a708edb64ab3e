import { ConfirmDialog } from '~/components/settings/confirm-dialog';

/** A record page's Delete confirmation (`?delete`): what goes, and that its history stays. */
export function DeleteRecordDialog({ open, closeTo, title, what }: { open: boolean; closeTo: string; title: string; what: string }) {
  return (
    <ConfirmDialog
      open={open}
      closeTo={closeTo}
      title={title}
      description={`Delete ${what}? Its history stays in the audit log.`}
      intent="delete"
      fields={{}}
      confirmLabel="Delete"
      busyLabel="Deleting..."
      focusCancel
    />
  );
}
