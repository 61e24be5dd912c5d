/**
 * Seed 000's InferenceProviderConfig forms and the custom engine: the flat
 * example of section 3.9 and the third-party registration of section 3.14
 * validate, normalise to the per-engine form in one place, and select as the
 * per-engine form does; `custom` runs only on a provider that lists it, needs
 * an image and is never auto-selected.
 */
import { parse } from 'yaml';
import { renderCrd } from '../crd/renderCrd';
import { inferenceProviderConfigCrd } from './crd';
import { engineCapabilities, normaliseProviderConfig } from './normalise';
import { chooseProvider, resolveDeployment, selectEngine } from './selection';
import {
  deployment,
  READY_BUILT_INS,
  SEED_FLAT_PROVIDER_CONFIG_YAML,
  SEED_THIRD_PARTY_PROVIDER_CONFIG_YAML,
} from './testing';
import type { InferenceProviderConfig, ModelDeploymentSpec } from './types';
import { validateModelDeployment, validateProviderConfig } from './validate';

const seedFlat = parse(
  SEED_FLAT_PROVIDER_CONFIG_YAML,
) as InferenceProviderConfig;
const thirdParty = {
  ...(parse(SEED_THIRD_PARTY_PROVIDER_CONFIG_YAML) as InferenceProviderConfig),
  status: { ready: true },
};

const customSpec = (patch: Partial<ModelDeploymentSpec> = {}) =>
  deployment({
    model: { id: 'newframework/tiny', source: 'custom' },
    engine: { type: 'custom' },
    image: 'ghcr.io/example/newframework-server:1.0',
    ...patch,
  }).spec;

describe("seed 000 section 3.9's flat InferenceProviderConfig", () => {
  it('validates as written', () => {
    expect(validateProviderConfig(seedFlat)).toEqual({
      valid: true,
      issues: [],
    });
  });

  it('normalises to per-engine capabilities, flat fields applied to every engine', () => {
    expect(normaliseProviderConfig(seedFlat).spec?.capabilities).toEqual({
      engines: [
        {
          name: 'vllm',
          servingModes: ['aggregated'],
          cpuSupport: true,
          gpuSupport: true,
        },
        {
          name: 'llamacpp',
          servingModes: ['aggregated'],
          cpuSupport: true,
          gpuSupport: true,
        },
      ],
    });
    // Idempotent, and the input is not modified.
    const once = normaliseProviderConfig(seedFlat);
    expect(normaliseProviderConfig(once)).toEqual(once);
    expect(seedFlat.spec?.capabilities?.engines).toEqual(['vllm', 'llamacpp']);
  });

  it('selects like its per-engine equivalent', () => {
    const perEngine = normaliseProviderConfig(seedFlat);
    for (const registration of [seedFlat, perEngine]) {
      // Engine auto-selection reads the flat fields: vllm for a GPU deployment.
      const auto = resolveDeployment(deployment({ engine: undefined }).spec, [
        registration,
      ]);
      expect(auto.engine).toMatchObject({ ok: true, engine: 'vllm' });
      // The seed's rule "spec.engine.type == 'llamacpp'" (priority 100) selects it.
      const llamacpp = resolveDeployment(
        deployment({ engine: { type: 'llamacpp' } }).spec,
        [registration],
      );
      expect(llamacpp.provider).toMatchObject({
        ok: true,
        provider: 'kaito',
        priority: 100,
      });
    }
  });

  it('reports a bad engine name or a bad engine object at the field, in either form', () => {
    const bad = (engines: unknown[]) =>
      validateProviderConfig({
        metadata: { name: 'p' },
        spec: { capabilities: { engines } },
      }).issues;
    expect(bad(['vllm', 'tgi'])).toContainEqual({
      path: 'spec.capabilities.engines[1].name',
      message:
        'spec.capabilities.engines[1].name must be one of: vllm, sglang, trtllm, llamacpp, custom (got "tgi")',
      severity: 'error',
    });
    expect(bad([{ name: 'vllm', gpuSupport: 'yes' }])).toContainEqual({
      path: 'spec.capabilities.engines[0].gpuSupport',
      message:
        'spec.capabilities.engines[0].gpuSupport must be true or false (got "yes")',
      severity: 'error',
    });
    expect(bad([{ gpuSupport: true }])).toContainEqual({
      path: 'spec.capabilities.engines[0].name',
      message: 'spec.capabilities.engines[0].name is required',
      severity: 'error',
    });
    expect(bad([3])).toContainEqual({
      path: 'spec.capabilities.engines[0]',
      message:
        'spec.capabilities.engines[0] must be one of: vllm, sglang, trtllm, llamacpp, custom, or an object with one of them as its name (got number 3)',
      severity: 'error',
    });
    expect(bad([{ name: 'vllm', gpuSuport: true }])).toContainEqual({
      path: 'spec.capabilities.engines[0].gpuSuport',
      message:
        'spec.capabilities.engines[0].gpuSuport is not a known field and would be dropped by the API server; check its spelling or remove it',
      severity: 'warning',
    });
  });

  it('reads only well-formed engines from a malformed registration', () => {
    expect(
      engineCapabilities({
        metadata: { name: 'p' },
        spec: { capabilities: { engines: ['vllm', 3, null] as never[] } },
      }).map(e => e.name),
    ).toEqual(['vllm']);
  });

  it('renders engines[] in the CRD as name-or-object items the API server keeps as is', () => {
    const engines = renderCrd(inferenceProviderConfigCrd).spec.versions[0]
      .schema.openAPIV3Schema.properties.spec.properties.capabilities.properties
      .engines;
    expect(engines.type).toBe('array');
    expect(engines.items).toEqual({
      description: expect.any(String),
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });
});

describe("engine custom (seed 000 section 3.14's third-party provider)", () => {
  it('validates the third-party registration', () => {
    expect(validateProviderConfig(thirdParty)).toEqual({
      valid: true,
      issues: [],
    });
  });

  it('requires an image, naming spec.image', () => {
    const { image: _image, ...withoutImage } = customSpec();
    expect(
      validateModelDeployment(deployment(withoutImage)).issues,
    ).toContainEqual({
      path: 'spec.image',
      message:
        'engine.type custom requires an image: set spec.image to the container that runs your inference server (a custom engine has no default image)',
      severity: 'error',
    });
    expect(
      validateModelDeployment(
        deployment({
          ...withoutImage,
          engine: { type: 'custom', image: 'ghcr.io/example/server:1' },
        }),
      ).valid,
    ).toBe(true);
    expect(validateModelDeployment(deployment(customSpec())).valid).toBe(true);
  });

  it('needs no GPU (the seed GPU rules are for vLLM, SGLang and TensorRT-LLM)', () => {
    const cpu = customSpec({ resources: { memory: '8Gi' } });
    expect(validateModelDeployment(deployment(cpu)).valid).toBe(true);
  });

  it('is never auto-selected, and says how to choose it', () => {
    const spec = deployment({ engine: undefined }).spec;
    const customOnly = {
      ...thirdParty,
      spec: { ...thirdParty.spec, capabilities: { engines: ['custom'] } },
    } as InferenceProviderConfig;
    expect(
      selectEngine(spec, [
        {
          ...customOnly,
          spec: {
            capabilities: { engines: [{ name: 'custom', gpuSupport: true }] },
          },
        },
      ]),
    ).toEqual({
      ok: false,
      reason:
        'engine.type is required: no ready provider (newframework) offers an engine for GPU, aggregated serving (custom is never chosen automatically: set spec.engine.type: custom and spec.image)',
    });
    // With vllm on offer too, vllm is chosen.
    expect(selectEngine(spec, [thirdParty])).toMatchObject({
      ok: true,
      engine: 'vllm',
    });
  });

  it('goes only to a provider that lists it: auto-selection skips the others', () => {
    const spec = customSpec();
    // Dynamo's "any GPU deployment" rule would match; it does not offer custom.
    expect(chooseProvider(spec, READY_BUILT_INS)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        /^No ready provider that offers the custom engine matches this deployment \(ready providers: dynamo, kaito, kuberay, llmd\); install a provider that registers engine custom/,
      ),
    });
    expect(
      chooseProvider(spec, [...READY_BUILT_INS, thirdParty]),
    ).toMatchObject({ ok: true, provider: 'newframework', priority: 100 });
  });

  it.each([
    ['kaito', 'KAITO does not support custom engine'],
    ['dynamo', 'Dynamo does not support custom engine'],
    ['kuberay', 'KubeRay does not support custom engine'],
    ['llmd', 'llm-d only supports vllm engine'],
  ])(
    'is refused by the built-in provider %s with its message',
    (name, message) => {
      const md = deployment(customSpec({ provider: { name } }));
      const issues = validateModelDeployment(md, {
        providers: READY_BUILT_INS,
      }).issues.filter(i => i.path === 'spec.engine.type');
      expect(issues).toEqual([
        { path: 'spec.engine.type', message, severity: 'error' },
      ]);
    },
  );

  it('is refused by a named provider that does not list it, naming the field', () => {
    const vllmOnly = {
      ...thirdParty,
      metadata: { name: 'vllm-only' },
      spec: { capabilities: { engines: ['vllm'] } },
    } as InferenceProviderConfig;
    const md = deployment(customSpec({ provider: { name: 'vllm-only' } }));
    expect(
      validateModelDeployment(md, { providers: [vllmOnly] }).issues,
    ).toContainEqual({
      path: 'spec.engine.type',
      message:
        'provider "vllm-only" does not offer the custom engine (its InferenceProviderConfig lists: vllm); name a provider that registers engine custom in spec.provider.name, or choose another spec.engine.type',
      severity: 'error',
    });
    const named = deployment(
      customSpec({ provider: { name: 'newframework' } }),
    );
    expect(validateModelDeployment(named, { providers: [thirdParty] })).toEqual(
      { valid: true, issues: [] },
    );
  });
});
