import {
  celSyntaxError,
  compileCel,
  evaluateCel,
  evaluateCondition,
  fromCel,
  toCel,
} from './cel';

const spec = toCel({
  model: { id: 'meta-llama/Llama-3.1-8B-Instruct', source: 'huggingface' },
  engine: { type: 'vllm', args: { quantization: 'awq' } },
  resources: { gpu: { count: 2 }, memory: '32Gi' },
  scaling: { replicas: 3 },
  env: [
    { name: 'A', value: '1' },
    { name: 'B', value: '2' },
  ],
  ports: [8000, 8001],
}) as Record<string, unknown>;

describe('CEL conditions', () => {
  it.each([
    // has()
    ['has(spec.resources.gpu)', true],
    ['has(spec.resources.cpu)', false],
    ['!has(spec.resources.gpu) || spec.resources.gpu.count == 0', false],
    ['has(spec.engine.args.quantization)', true],
    // macros
    ['spec.env.all(e, e.name.size() == 1)', true],
    ["spec.env.exists(e, e.name == 'B')", true],
    ["spec.env.exists_one(e, e.value == '1')", true],
    ['spec.ports.map(p, p + 1) == [8001, 8002]', true],
    ['spec.ports.filter(p, p > 8000).size() == 1', true],
    // string functions
    ["spec.model.id.startsWith('meta-llama/')", true],
    ["spec.model.id.endsWith('-Instruct')", true],
    ["spec.model.id.contains('Llama-3.1')", true],
    ["spec.model.id.matches('^[a-z-]+/Llama-3\\\\.[0-9]+-8B')", true],
    ["spec.model.id.matches('^mistral')", false],
    ['size(spec.model.id) > 10', true],
    // int arithmetic and comparison
    ['spec.resources.gpu.count + 1 == 3', true],
    ['spec.resources.gpu.count * spec.scaling.replicas == 6', true],
    ['spec.scaling.replicas / 2 == 1', true],
    ['spec.scaling.replicas % 2 == 1', true],
    ['spec.resources.gpu.count - 3 < 0', true],
    ['spec.resources.gpu.count >= 2 && spec.resources.gpu.count <= 8', true],
    ['spec.resources.gpu.count != 2', false],
    // string equality and membership
    ["spec.engine.type == 'vllm'", true],
    ["spec.engine.type in ['sglang', 'trtllm']", false],
    ["'quantization' in spec.engine.args", true],
  ])('%s is %p', (expression, expected) => {
    expect(evaluateCondition(expression, { spec })).toEqual({
      ok: true,
      value: expected,
    });
  });

  it.each([
    ['spec.model.id +', 'invalid CEL expression'],
    ['spec.nothing.here == 1', 'No such key: nothing'],
    ["spec.resources.gpu.count + 'a' == 1", 'no such overload'],
    ['spec.resources.gpu.count', 'condition must evaluate to a bool, got int'],
    ['spec.model.id', 'condition must evaluate to a bool, got string'],
    ['unknownFunction(spec) == 1', 'unknownFunction'],
    ["spec.model.id.matches('[')", ''],
    ['1 / 0 == 1', 'division by zero'],
  ])('%s fails with an error, never a throw', (expression, message) => {
    const outcome = evaluateCondition(expression, { spec });
    expect(outcome).toEqual({
      ok: false,
      error: expect.stringContaining(message),
    });
    expect(outcome).not.toEqual({ ok: false, error: '' });
  });

  it('compiles an expression once and reuses it', () => {
    const a = compileCel('spec.scaling.replicas > 1');
    const b = compileCel('spec.scaling.replicas > 1');
    expect(a).toBe(b);
    expect(a.evaluate({ spec })).toEqual({ ok: true, value: true });
  });

  it('reports syntax errors without evaluating', () => {
    expect(celSyntaxError("spec.engine.type == 'vllm'")).toBeUndefined();
    expect(celSyntaxError('spec.engine.type ==')).toMatch(
      /^invalid CEL expression: /,
    );
  });

  it('returns values of any type from evaluateCel, converted back to JSON', () => {
    const outcome = evaluateCel('spec.ports.map(p, p * 2)', { spec });
    expect(outcome.ok && fromCel(outcome.value)).toEqual([16000, 16002]);
  });
});

describe('toCel / fromCel', () => {
  it('turns whole numbers into int and keeps fractions as double', () => {
    expect(toCel({ a: 1, b: 0.5, c: [2, 'x', null, true] })).toEqual({
      a: 1n,
      b: 0.5,
      c: [2n, 'x', null, true],
    });
    expect(fromCel({ a: 1n, b: [2n] })).toEqual({ a: 1, b: [2] });
  });
});
