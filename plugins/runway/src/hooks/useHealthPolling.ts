import { useEffect } from 'react';
import { isFinal } from '../lib/detail';

/** While every cluster is current: a safety net for a missed signal. */
export const HEALTH_POLL_MS = 30_000;
/** While some cluster is stale or unreachable: how soon its return shows. */
export const STALE_POLL_MS = 5_000;

/**
 * Reloads cluster-dependent data now and then even when the backend pushes
 * signals: a cluster's state changes once (a signal sent while the page's
 * signal connection is still opening or reconnecting is lost), and a page
 * must never show a stopped cluster as current for long. Polls faster while
 * something is stale.
 */
export function useHealthPolling(
  refreshers: Array<() => void>,
  somethingStale: boolean,
): void {
  useEffect(() => {
    const timer = setInterval(
      () => refreshers.forEach(refresh => refresh()),
      somethingStale ? STALE_POLL_MS : HEALTH_POLL_MS,
    );
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [somethingStale, ...refreshers]);
}

/**
 * A detail page's safety net: reloads every 5 s until the resource reaches
 * a final phase (`isFinal`), then every 30 s. A resource can change before the page's
 * signal subscription is open (a stack is Ready within a second of its
 * creation), and that signal is lost.
 */
export function useDetailPolling(
  refresh: () => void,
  phase: string | undefined,
): void {
  useHealthPolling([refresh], !isFinal(phase ?? ''));
}
