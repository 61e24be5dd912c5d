import { StringDecoder } from 'node:string_decoder';

/**
 * Splits a byte stream into newline-terminated lines (a watch stream sends
 * one JSON object per line). Chunks may split lines and multi-byte
 * characters anywhere.
 *
 * @public
 */
export class LineDecoder {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';

  /** Feeds a chunk; returns the lines it completed (without the newline). */
  push(chunk: Buffer | string): string[] {
    const text =
      this.partial +
      (typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    return lines.filter(l => l.trim() !== '');
  }

  /** The unterminated rest at the end of the stream, if any. */
  end(): string[] {
    const rest = (this.partial + this.decoder.end()).trim();
    this.partial = '';
    return rest ? [rest] : [];
  }
}
