import { Registry } from 'prom-client';
import { StackMetrics } from './metrics';
import type { Stack } from './objects';

describe('StackMetrics', () => {
  it('counts stacks by namespace and phase at scrape time', async () => {
    const registry = new Registry();
    let stacks: Stack[] = [
      { metadata: { namespace: 'a' }, status: { phase: 'Ready' } },
      { metadata: { namespace: 'a' }, status: { phase: 'Ready' } },
      { metadata: { namespace: 'b' } },
    ] as Stack[];
    const metrics = new StackMetrics(registry, () => stacks);
    metrics.configGeneration.observe({ result: 'ok' }, 0.002);
    metrics.configUpdates.inc({ namespace: 'a' });
    let text = await registry.metrics();
    expect(text).toContain('runway_stacks{namespace="a",phase="Ready"} 2');
    expect(text).toContain('runway_stacks{namespace="b",phase="Unknown"} 1');
    expect(text).toContain(
      'runway_stack_config_generation_seconds_count{result="ok"} 1',
    );
    expect(text).toContain(
      'runway_stack_config_updates_total{namespace="a"} 1',
    );
    stacks = [];
    text = await registry.metrics();
    expect(text).not.toContain('runway_stacks{');
  });
});
