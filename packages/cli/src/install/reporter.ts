/** Where the commands write: lines for the plan and result, progress for waits. @public */
export interface Reporter {
  line(text: string): void;
  /** A wait in progress (overwritten in a terminal, one line per change otherwise). */
  progress(text: string): void;
}

export function streamReporter(
  out: NodeJS.WriteStream = process.stdout,
): Reporter {
  let last = '';
  return {
    line: text => {
      if (last && out.isTTY) out.write('\r\x1b[K');
      last = '';
      out.write(`${text}\n`);
    },
    progress: text => {
      if (text === last) return;
      out.write(out.isTTY ? `\r\x1b[K${text}` : `${text}\n`);
      last = text;
    },
  };
}

/** Collects lines (tests, --output json). @public */
export function memoryReporter(): Reporter & { lines: string[] } {
  const lines: string[] = [];
  return { lines, line: t => lines.push(t), progress: t => lines.push(t) };
}
