import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  builtInPreset,
  choosePreset,
  compareReleases,
  detectKaitoRelease,
  KAITO_PRESETS,
} from './presets';

const upstreamCrd = () =>
  parse(
    fs.readFileSync(
      path.join(
        __dirname,
        '../../../../../shared/upstream/crds/kaito-kaito.sh_workspaces.yaml',
      ),
      'utf8',
    ),
  );

describe('KAITO release detection from the Workspace CRD', () => {
  it('reads v0.9.0 or later from the real CRD (v1beta1 has status.state)', () => {
    expect(detectKaitoRelease(upstreamCrd())).toBe('0.9.0');
  });

  it('reads v0.4.5 to v0.8.x when v1beta1 lacks status.state, and an older KAITO from v1alpha1 alone', () => {
    const crd = upstreamCrd();
    const v1beta1 = crd.spec.versions.find(
      (v: { name: string }) => v.name === 'v1beta1',
    );
    delete v1beta1.schema.openAPIV3Schema.properties.status.properties.state;
    expect(detectKaitoRelease(crd)).toBe('0.4.5');
    crd.spec.versions = crd.spec.versions.filter(
      (v: { name: string }) => v.name === 'v1alpha1',
    );
    expect(detectKaitoRelease(crd)).toBe('0.2.0');
    expect(detectKaitoRelease(undefined)).toBeUndefined();
  });
});

describe('KAITO presets', () => {
  it('compares releases numerically', () => {
    expect(compareReleases('0.10.0', '0.9.0')).toBeGreaterThan(0);
    expect(compareReleases('0.4.5', '0.4.5')).toBe(0);
  });

  it('maps each built-in preset back from its Hugging Face id, case-insensitively, with unique names and ids', () => {
    expect(new Set(KAITO_PRESETS.map(p => p.name)).size).toBe(
      KAITO_PRESETS.length,
    );
    expect(
      new Set(KAITO_PRESETS.map(p => p.huggingFace.toLowerCase())).size,
    ).toBe(KAITO_PRESETS.length);
    for (const p of KAITO_PRESETS)
      expect(builtInPreset(p.huggingFace.toUpperCase())?.name).toBe(p.name);
  });

  it('the lower-cased basename is not the preset name for most models (the old guess)', () => {
    const guessed = KAITO_PRESETS.filter(
      p => p.huggingFace.split('/')[1].toLowerCase() !== p.name,
    );
    expect(guessed.map(p => p.name)).toEqual(
      expect.arrayContaining([
        'mistral-7b-instruct',
        'gemma-3-4b-instruct',
        'ministral-3-8b-instruct',
      ]),
    );
  });

  it('chooses the id from v0.9.0, the built-in name before, and refuses a model without one', () => {
    expect(choosePreset('microsoft/phi-4', '0.9.0')).toEqual({
      ok: true,
      name: 'microsoft/phi-4',
    });
    expect(choosePreset('microsoft/phi-4', '0.4.5')).toEqual({
      ok: true,
      name: 'phi-4',
    });
    expect(choosePreset('org/unknown', '0.4.5')).toMatchObject({
      ok: false,
      message: expect.stringContaining("'org/unknown' has no KAITO preset"),
    });
  });
});

describe('KAITO presets on a v1alpha1-only KAITO', () => {
  it('offers only presets older than v0.4.5, the release that added v1beta1', () => {
    expect(choosePreset('mistralai/Mistral-7B-Instruct-v0.3', '0.2.0')).toEqual(
      {
        ok: true,
        name: 'mistral-7b-instruct',
      },
    );
    const refused = choosePreset('meta-llama/Llama-3.1-8B-Instruct', '0.2.0');
    expect(refused).toMatchObject({
      ok: false,
      message: expect.stringContaining(
        'needs KAITO v0.4.6 or later, and this KAITO is older than v0.4.5',
      ),
    });
    expect(refused.ok ? '' : refused.message).not.toContain(
      'microsoft/Phi-4-mini-instruct',
    );
  });
});
