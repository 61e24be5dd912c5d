import { LineDecoder } from './lineDecoder';

describe('LineDecoder', () => {
  it('reassembles lines split across chunks, including multi-byte characters', () => {
    const d = new LineDecoder();
    const bytes = Buffer.from('{"a":"é"}\n{"b":2}\n{"c"');
    const out: string[] = [];
    for (let i = 0; i < bytes.length; i++)
      out.push(...d.push(bytes.subarray(i, i + 1)));
    out.push(...d.push(':3}'));
    out.push(...d.end());
    expect(out).toEqual(['{"a":"é"}', '{"b":2}', '{"c":3}']);
  });

  it('ignores blank lines', () => {
    const d = new LineDecoder();
    expect(d.push('\n\n{"x":1}\n\n')).toEqual(['{"x":1}']);
    expect(d.end()).toEqual([]);
  });
});
