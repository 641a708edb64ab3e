// Live updates of the helpdesk screens (decision 075): with JavaScript on, the
// page's loaders run again every LIVE_INTERVAL_MS while the tab is visible, and
// at once when it becomes visible again, so new conversations and messages
// appear without a reload. Revalidation, not a live channel: the Worker keeps
// no connections, and the loaders are already one backend round trip each.
// Without JavaScript nothing changes: a reload shows the same.
import { useEffect } from 'react';
import { useRevalidator } from 'react-router';

export const LIVE_INTERVAL_MS = 15_000;

export function useLiveRevalidation(intervalMs = LIVE_INTERVAL_MS) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === 'visible' && state === 'idle') void revalidate();
    };
    const timer = window.setInterval(refresh, intervalMs);
    const onVisible = () => document.visibilityState === 'visible' && refresh();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [revalidate, state, intervalMs]);
}
