/**
 * What reading an image's config labels costs (seed 004 phase 2), against
 * the registry simulator of e2e/simulators on loopback: p50/p99 of a cold
 * read (manifest, config blob; the layer variant also reads the layer), a
 * read whose digest's config is cached (FR-027i: one HEAD), and a lookup
 * answered from memory (what a reconcile pays once an image is known),
 * next to the baseline of one plain HTTP round trip to the same server.
 *
 *   yarn bench:image-config [iterations]   (default 300)
 */
import { startRegistrySimulator } from '@runway-portal/e2e-simulators';
import { embeddedDistributions } from '../src/config/distributions';
import { ImageConfigs } from '../src/oci/imageConfigs';
import { readImageConfig, type ImageConfigRead } from '../src/oci/registry';

const iterations = Number(process.argv[2] ?? 300);
const config = embeddedDistributions().configs.starter;

async function measure(label: string, fn: () => Promise<unknown> | unknown) {
  for (let i = 0; i < 20; i++) await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) =>
    times[Math.min(times.length - 1, Math.floor(q * times.length))];
  console.log(
    `${label.padEnd(58)} p50 ${p(0.5).toFixed(3)} ms   p99 ${p(0.99).toFixed(
      3,
    )} ms`,
  );
  return p(0.5);
}

async function main() {
  const registry = await startRegistrySimulator({
    images: {
      'bench/base64:1': {
        labels: {
          'io.llamastack.config.base64': Buffer.from(config).toString('base64'),
        },
      },
      'bench/layer:1': {
        // A 4 MiB layer of other files next to the config's layer.
        layers: [
          { 'bin/blob': 'x'.repeat(4 * 1024 * 1024) },
          { 'app/config.yaml': config },
        ],
        labels: layers => ({
          'io.llamastack.config.layer': layers[1],
          'io.llamastack.config.path': 'app/config.yaml',
        }),
      },
    },
  });
  const options = { insecureRegistries: [registry.host], timeoutMs: 10_000 };
  const check = (r: ImageConfigRead) => {
    if (r.kind !== 'found') throw new Error(`expected a config, got ${r.kind}`);
  };
  try {
    const baseline = await measure(
      'baseline: one HTTP round trip (GET /v2/)',
      async () => (await fetch(`http://${registry.host}/v2/`)).text(),
    );
    const cold = await measure('cold read, base64 label', async () =>
      check(
        await readImageConfig(registry.image('bench/base64:1'), [], options),
      ),
    );
    await measure(
      'cold read, layer + path label (4 MiB layer beside: unread)',
      async () =>
        check(
          await readImageConfig(registry.image('bench/layer:1'), [], options),
        ),
    );
    const first = await readImageConfig(
      registry.image('bench/base64:1'),
      [],
      options,
    );
    const cached = await measure('digest known (FR-027i): one HEAD', async () =>
      check(
        await readImageConfig(
          registry.image('bench/base64:1'),
          [],
          options,
          d => (d === first.digest ? first : undefined),
        ),
      ),
    );
    const configs = new ImageConfigs({ registry: options });
    configs.lookup(
      registry.image('bench/base64:1'),
      'ns/default',
      async () => [],
    );
    await configs.settled(registry.image('bench/base64:1'), 'ns/default');
    const memory = await measure(
      'lookup answered from memory (a reconcile)',
      () => {
        const r = configs.lookup(
          registry.image('bench/base64:1'),
          'ns/default',
          async () => [],
        );
        if (r.state !== 'read') throw new Error(r.state);
      },
    );
    console.log(
      `ratios to the baseline (p50): cold ${(cold / baseline).toFixed(
        1,
      )} x, digest known ${(cached / baseline).toFixed(1)} x, from memory ${(
        memory / baseline
      ).toFixed(4)} x; iterations ${iterations}`,
    );
  } finally {
    await registry.stop();
  }
}

main().catch(err => {
  console.error(err);
  process.exitCode = 1;
});
