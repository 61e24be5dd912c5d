import { useEffect, useState } from 'react';

/** How often detail pages re-read the clock for the relative times of their conditions, events and created objects (a young object's Age ticks every second on its own). */
export const DETAIL_TICK_MS = 5_000;

/** The current time, refreshed every `intervalMs` (ages in tables stay right). */
export function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
