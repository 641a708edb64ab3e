import { StatusBadge } from '~/components/status-badge';

/** 'Failed' when the last run failed (its error is on the automation's page), else its status. */
export const automationStatus = (a: { status: string; last_error: string | null }) =>
  a.last_error && a.status === 'active' ? <StatusBadge status="Failed" /> : <StatusBadge status={a.status} />;
