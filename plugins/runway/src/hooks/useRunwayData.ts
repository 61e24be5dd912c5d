import { useApi, useApiHolder } from '@backstage/core-plugin-api';
import { signalApiRef } from '@backstage/plugin-signals-react';
import {
  type RunwayKind,
  runwaySignalChannel,
} from '@runway-portal/plugin-runway-common';
import { useCallback, useEffect, useRef, useState } from 'react';
import { runwayApiRef, type RunwayApi } from '../api/RunwayApi';

export interface AsyncData<T> {
  value?: T;
  error?: Error;
  /** True until the first answer (later refreshes keep showing the last value). */
  loading: boolean;
  refresh: () => void;
}

/** Without signals (plugin not installed), pages poll this often. */
export const POLL_INTERVAL_MS = 15_000;
/** Signals come in bursts; one reload per this window. */
export const SIGNAL_DEBOUNCE_MS = 300;

/**
 * Loads data from the runway API and reloads it when the backend signals a
 * change of one of `kinds`, or by polling when the app has no signals
 * (with no kinds, it loads once per change of `deps`). A
 * failed reload keeps the last value and reports the error next to it.
 */
export function useRunwayData<T>(
  load: (api: RunwayApi) => Promise<T>,
  deps: unknown[],
  kinds: RunwayKind[] = ['deployments'],
): AsyncData<T> {
  const api = useApi(runwayApiRef);
  const [state, setState] = useState<{
    value?: T;
    error?: Error;
    loading: boolean;
  }>({ loading: true });
  const generation = useRef(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const stableLoad = useCallback(load, deps);

  const refresh = useCallback(() => {
    const mine = ++generation.current;
    stableLoad(api).then(
      value => {
        if (mine === generation.current) setState({ value, loading: false });
      },
      error => {
        if (mine === generation.current)
          setState(s => ({ value: s.value, error, loading: false }));
      },
    );
  }, [api, stableLoad]);

  useEffect(() => {
    setState({ loading: true });
    refresh();
  }, [refresh]);

  useRunwayChanges(kinds, refresh);

  return { ...state, refresh };
}

/**
 * Calls `onChange` when the backend signals a change of one of `kinds`
 * (debounced), or every POLL_INTERVAL_MS when the app has no signals; never
 * at once (the caller loads first however it likes). No kinds: never.
 */
export function useRunwayChanges(
  kinds: RunwayKind[],
  onChange: () => void,
): void {
  const signalApi = useApiHolder().get(signalApiRef);
  const kindsKey = kinds.join(',');
  useEffect(() => {
    // No kinds: loaded once (e.g. a form's pickers), neither polled nor signalled.
    if (!kindsKey) return undefined;
    if (!signalApi) {
      const poll = setInterval(onChange, POLL_INTERVAL_MS);
      return () => clearInterval(poll);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscriptions = kindsKey.split(',').map(kind =>
      signalApi.subscribe(runwaySignalChannel(kind as RunwayKind), () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(onChange, SIGNAL_DEBOUNCE_MS);
      }),
    );
    return () => {
      subscriptions.forEach(s => s.unsubscribe());
      if (timer) clearTimeout(timer);
    };
  }, [signalApi, kindsKey, onChange]);
}
