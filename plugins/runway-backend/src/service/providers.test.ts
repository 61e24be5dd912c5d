import {
  DYNAMO_PROVIDER,
  KAITO_PROVIDER,
  KUBERAY_PROVIDER,
  LLMD_PROVIDER,
} from '@runway-portal/plugin-runway-common';
import { BUILT_IN_PROVIDERS } from './providers';

describe('BUILT_IN_PROVIDERS', () => {
  it('are the four providers, named as they register, so the preview finds the one the core selects', () => {
    expect(BUILT_IN_PROVIDERS.map(d => d.name)).toEqual([
      'kaito',
      'dynamo',
      'kuberay',
      'llmd',
    ]);
    for (const definition of BUILT_IN_PROVIDERS)
      expect(definition.registration.metadata?.name).toBe(definition.name);
    expect(BUILT_IN_PROVIDERS.map(d => d.registration)).toEqual([
      KAITO_PROVIDER,
      DYNAMO_PROVIDER,
      KUBERAY_PROVIDER,
      LLMD_PROVIDER,
    ]);
  });
});
