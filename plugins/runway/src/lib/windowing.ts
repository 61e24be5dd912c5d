/**
 * Which rows of a long list are on screen: the table renders only those
 * (plus a margin), so thousands of rows cost what a screenful costs. Pure.
 */
export interface WindowRange {
  /** First row index rendered. */
  start: number;
  /** One past the last row index rendered. */
  end: number;
  /** Space above the first rendered row, in px. */
  offsetTop: number;
  /** Height of all rows, in px. */
  totalHeight: number;
}

export function visibleRange(options: {
  count: number;
  rowHeight: number;
  scrollTop: number;
  viewportHeight: number;
  overscan?: number;
}): WindowRange {
  const { count, rowHeight, scrollTop, viewportHeight } = options;
  const overscan = options.overscan ?? 10;
  const visible = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  // A list that shrank while scrolled far down still shows its last rows.
  const first = Math.min(
    Math.floor(Math.max(0, scrollTop) / rowHeight),
    Math.max(0, count - visible),
  );
  const start = Math.max(0, Math.min(count, first - overscan));
  const end = Math.max(start, Math.min(count, first + visible + overscan));
  return {
    start,
    end,
    offsetTop: start * rowHeight,
    totalHeight: count * rowHeight,
  };
}
