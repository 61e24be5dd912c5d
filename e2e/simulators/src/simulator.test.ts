import { parseSimulatorArgs } from './main';
import {
  fieldManagerOf,
  modelServiceObject,
  SIMULATOR_NAMES,
  storageVersion,
} from './simulator';
import { kaitoSimulation } from './kaito';
import { dynamoSimulation } from './dynamo';
import { kuberaySimulation } from './kuberay';

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
  it('are kaito, dynamo, kuberay and the gateway, each with its own field manager', () => {
    expect(SIMULATOR_NAMES).toEqual([
      'kaito',
      'dynamo',
      'kuberay',
      'gateway',
      'llama-stack',
    ]);
    expect(fieldManagerOf(kaitoSimulation)).toBe('simulator-kaito');
  });

  it.each([
    { simulation: kaitoSimulation, name: 'llama', port: 80, targetPort: 5000 },
    {
      simulation: dynamoSimulation,
      name: 'llama-frontend',
      port: 8000,
      targetPort: 8000,
    },
    {
      simulation: kuberaySimulation,
      name: 'llama-serve-svc',
      port: 8000,
      targetPort: 8000,
    },
  ])(
    '$simulation.name creates the Service $name its provider reports in status.endpoint.service',
    ({ simulation, name, port, targetPort }) => {
      const owner = {
        apiVersion: 'x/v1',
        kind: 'X',
        name: 'llama',
        namespace: 'ns',
        uid: 'u-1',
      };
      const svc = modelServiceObject(
        simulation.name,
        owner,
        simulation.service({ metadata: { name: 'llama', namespace: 'ns' } }),
      ) as any;
      expect(svc.metadata).toMatchObject({
        name,
        namespace: 'ns',
        labels: { 'runway-portal.dev/simulator': simulation.name },
        ownerReferences: [
          {
            apiVersion: 'x/v1',
            kind: 'X',
            name: 'llama',
            uid: 'u-1',
            controller: true,
          },
        ],
      });
      expect(svc.spec.ports).toEqual([
        { name: 'http', protocol: 'TCP', port, targetPort },
      ]);
      expect(Object.keys(svc.spec.selector).length).toBeGreaterThan(0);
    },
  );
});

describe('parseSimulatorArgs', () => {
  it('reads flags before the environment', () => {
    expect(
      parseSimulatorArgs(
        ['--step-delay-ms', '500', '--only', 'kaito, kuberay'],
        {
          KUBECONFIG: '/k',
          RUNWAY_SIMULATOR_STEP_DELAY_MS: '9',
        },
      ),
    ).toEqual({
      kubeconfig: '/k',
      stepDelayMs: 500,
      only: ['kaito', 'kuberay'],
    });
    expect(
      parseSimulatorArgs([], { RUNWAY_SIMULATOR_STEP_DELAY_MS: '9' })
        .stepDelayMs,
    ).toBe(9);
    expect(parseSimulatorArgs([], {}).stepDelayMs).toBe(2000);
  });
  it('names the flag and the fix for a bad delay', () => {
    expect(() => parseSimulatorArgs(['--step-delay-ms', 'soon'], {})).toThrow(
      '--step-delay-ms (or RUNWAY_SIMULATOR_STEP_DELAY_MS) must be a whole number of milliseconds, 0 or more; got "soon"',
    );
  });
  it('needs the cluster folder for model downloads (their logs are served with its certificate)', () => {
    expect(() => parseSimulatorArgs(['--models-dir', '/m'], {})).toThrow(
      "--models-dir (or RUNWAY_MODELS_DIR) needs --cluster-dir (or RUNWAY_CLUSTER_DIR): download pods' logs are served with the cluster's certificate; set it to the cluster's folder",
    );
    expect(
      parseSimulatorArgs(['--models-dir', '/m', '--cluster-dir', '/c'], {}),
    ).toMatchObject({ modelsDir: '/m', clusterDir: '/c' });
  });
  it('serves probes only when given a health port, and names a bad one', () => {
    expect(parseSimulatorArgs([], {})).not.toHaveProperty('healthPort');
    expect(parseSimulatorArgs(['--health-port', '0'], {}).healthPort).toBe(0);
    expect(() => parseSimulatorArgs(['--health-port', '99999'], {})).toThrow(
      '--health-port must be a port number from 0 to 65535 (0 picks a free one); got "99999"',
    );
  });
  it('names unknown simulators and the known ones', () => {
    expect(() => parseSimulatorArgs(['--only', 'kserve'], {})).toThrow(
      '--only names unknown simulator(s) kserve: choose from kaito, dynamo, kuberay',
    );
  });
});
