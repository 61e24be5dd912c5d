import fs from 'fs';
import path from 'path';
import YAML from 'yaml';
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import { resolveDeployment } from '@runway-portal/provider-shared';
import { mapDynamoStatus } from './status';
import { buildDynamoGraphDeployment, type Json } from './transform';

const md: ModelDeployment = resolveDeployment(
  YAML.parse(
    fs.readFileSync(
      path.join(__dirname, 'testdata', 'seed-example-3.modeldeployment.yaml'),
      'utf8',
    ),
  ),
);
const dgd = (version: 'v1alpha1' | 'v1beta1', status?: Json): KubeObject => ({
  ...buildDynamoGraphDeployment(md, version).object,
  ...(status ? { status } : {}),
});

describe('mapDynamoStatus (seed 000 section 4.9)', () => {
  it('is Deploying with the worker count before Dynamo reports anything', () => {
    const s = mapDynamoStatus(md, dgd('v1alpha1'));
    expect(s).toMatchObject({
      phase: 'Deploying',
      ready: false,
      replicas: { desired: 6, ready: 0, available: 0 },
      reason: 'Deploying',
      endpoint: { service: 'llama-70b-pd-frontend', port: 8000 },
    });
    expect(s.message).toBe(
      'DynamoGraphDeployment is being created (0/6 worker replicas ready)',
    );
  });

  it.each(['initializing', 'pending', 'deploying'])(
    'maps state %s to Deploying',
    state => {
      expect(mapDynamoStatus(md, dgd('v1beta1', { state })).phase).toBe(
        'Deploying',
      );
    },
  );

  it('maps successful to Running and counts ready workers but not the frontend (v1alpha1 services)', () => {
    const services = {
      Frontend: {
        componentKind: 'Deployment',
        componentName: 'f',
        replicas: 2,
        updatedReplicas: 2,
        readyReplicas: 2,
      },
      VllmPrefillWorker: {
        componentKind: 'Deployment',
        componentName: 'p',
        replicas: 2,
        updatedReplicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
      },
      VllmDecodeWorker: {
        componentKind: 'Deployment',
        componentName: 'd',
        replicas: 4,
        updatedReplicas: 4,
        readyReplicas: 4,
        availableReplicas: 4,
      },
    };
    const s = mapDynamoStatus(
      md,
      dgd('v1alpha1', { state: 'successful', services }),
    );
    expect(s).toMatchObject({
      phase: 'Running',
      ready: true,
      reason: 'DeploymentReady',
      replicas: { desired: 6, ready: 6, available: 6 },
    });
  });

  it('reads v1beta1 status.components', () => {
    const components = {
      VllmPrefillWorker: {
        componentKind: 'Deployment',
        replicas: 2,
        updatedReplicas: 2,
        readyReplicas: 1,
      },
      VllmDecodeWorker: {
        componentKind: 'Deployment',
        replicas: 4,
        updatedReplicas: 4,
        readyReplicas: 3,
      },
    };
    const s = mapDynamoStatus(
      md,
      dgd('v1beta1', { state: 'pending', components }),
    );
    expect(s.replicas).toEqual({ desired: 6, ready: 4, available: 4 });
    expect(s.message).toBe(
      'DynamoGraphDeployment is pending (4/6 worker replicas ready)',
    );
  });

  it('maps failed to Failed with the upstream message (status.message, else a failing condition)', () => {
    expect(
      mapDynamoStatus(
        md,
        dgd('v1alpha1', { state: 'failed', message: 'insufficient GPUs' }),
      ).message,
    ).toBe('DynamoGraphDeployment failed: insufficient GPUs');
    const conditions = [
      {
        type: 'Ready',
        status: 'False',
        reason: 'PodsFailing',
        message: 'pod VllmDecodeWorker-0 crash looping',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ];
    const s = mapDynamoStatus(
      md,
      dgd('v1beta1', { state: 'failed', conditions }),
    );
    expect(s).toMatchObject({
      phase: 'Failed',
      ready: false,
      message:
        'DynamoGraphDeployment failed: pod VllmDecodeWorker-0 crash looping',
    });
  });
});
