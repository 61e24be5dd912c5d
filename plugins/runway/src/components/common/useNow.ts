import { useEffect, useState } from 'react';

/** The current time, refreshed every `intervalMs` (ages in tables stay right). */
/** How often detail pages re-read the clock: their ages start in seconds. */
export const DETAIL_TICK_MS = 5_000;

export function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
