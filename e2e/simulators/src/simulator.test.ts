import { parseSimulatorArgs } from './main';
import { fieldManagerOf, SIMULATOR_NAMES, storageVersion } from './simulator';
import { kaitoSimulation } from './kaito';

describe('storageVersion', () => {
  const versions = [
    { name: 'v1alpha1', storage: false },
    { name: 'v1beta1', storage: true },
  ];
  it('is the storage version of an Established CRD', () => {
    expect(
      storageVersion({
        spec: { versions },
        status: { conditions: [{ type: 'Established', status: 'True' }] },
      }),
    ).toBe('v1beta1');
  });
  it('is undefined until the CRD is Established', () => {
    expect(storageVersion({ spec: { versions } })).toBeUndefined();
    expect(
      storageVersion({
        spec: { versions },
        status: { conditions: [{ type: 'Established', status: 'False' }] },
      }),
    ).toBeUndefined();
  });
});

describe('simulators', () => {
  it('are kaito, dynamo and kuberay, each with its own field manager', () => {
    expect(SIMULATOR_NAMES).toEqual(['kaito', 'dynamo', 'kuberay']);
    expect(fieldManagerOf(kaitoSimulation)).toBe('simulator-kaito');
  });
});

describe('parseSimulatorArgs', () => {
  it('reads flags before the environment', () => {
    expect(
      parseSimulatorArgs(['--step-delay-ms', '500', '--only', 'kaito, kuberay'], {
        KUBECONFIG: '/k',
        RUNWAY_SIMULATOR_STEP_DELAY_MS: '9',
      }),
    ).toEqual({ kubeconfig: '/k', stepDelayMs: 500, only: ['kaito', 'kuberay'] });
    expect(parseSimulatorArgs([], { RUNWAY_SIMULATOR_STEP_DELAY_MS: '9' }).stepDelayMs).toBe(9);
    expect(parseSimulatorArgs([], {}).stepDelayMs).toBe(2000);
  });
  it('names the flag and the fix for a bad delay', () => {
    expect(() => parseSimulatorArgs(['--step-delay-ms', 'soon'], {})).toThrow(
      '--step-delay-ms (or RUNWAY_SIMULATOR_STEP_DELAY_MS) must be a whole number of milliseconds, 0 or more; got "soon"',
    );
  });
  it('names unknown simulators and the known ones', () => {
    expect(() => parseSimulatorArgs(['--only', 'kserve'], {})).toThrow(
      '--only names unknown simulator(s) kserve: choose from kaito, dynamo, kuberay',
    );
  });
});
