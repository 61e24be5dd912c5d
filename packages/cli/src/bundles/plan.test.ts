import type { KubeObject } from '@runway-portal/controller-runtime';
import { COMPONENT_LABEL } from './catalog';
import { buildPlan, customize, providerBundleProblem } from './plan';

const ns: KubeObject = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'airunway-system' },
};
const crd: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'modeldeployments.airunway.ai' },
};
const hook: KubeObject = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'v' },
};
const deployment = (name: string): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'airunway-system' },
    spec: {
      template: {
        spec: {
          containers: [
            {
              name: 'c',
              image: `ghcr.io/runway-portal/${name}:latest`,
              args: ['--leader-election-namespace=airunway-system'],
            },
            { name: 'side', image: 'busybox:1' },
          ],
        },
      },
    },
  } as KubeObject);

describe('buildPlan', () => {
  it('orders namespace, CRDs, controllers, webhooks and keeps shared objects once', () => {
    const plan = buildPlan([
      { component: 'core', objects: [hook, deployment('core'), crd, ns] },
      { component: 'kaito', objects: [ns, crd, deployment('kaito')] },
    ]);
    expect(plan.map(p => `${p.phase} ${p.object.metadata?.name}`)).toEqual([
      'namespace airunway-system',
      'crd modeldeployments.airunway.ai',
      'workload core',
      'workload kaito',
      'webhook v',
    ]);
    expect(plan[0].components).toEqual(['core', 'kaito']);
    expect(plan[0].object.metadata?.labels?.[COMPONENT_LABEL]).toBeUndefined();
    expect(plan[2].object.metadata?.labels?.[COMPONENT_LABEL]).toBe('core');
  });

  it('refuses two bundles defining the same controller object, naming both', () => {
    expect(() =>
      buildPlan([
        { component: 'a', objects: [deployment('x')] },
        { component: 'b', objects: [deployment('x')] },
      ]),
    ).toThrow(/Deployment airunway-system\/x is defined by both a and b/);
  });

  it('refuses shared objects that differ between bundles', () => {
    const other = { ...crd, spec: { group: 'changed' } } as KubeObject;
    expect(() =>
      buildPlan([
        { component: 'a', objects: [crd] },
        { component: 'b', objects: [other] },
      ]),
    ).toThrow(/differently/);
  });
});

describe('customize', () => {
  it('moves everything to another namespace, flags included', () => {
    const out = customize(deployment('core'), 'core', {
      namespace: 'runway-prod',
    }) as any;
    expect(out.metadata.namespace).toBe('runway-prod');
    expect(out.spec.template.spec.containers[0].args).toEqual([
      '--leader-election-namespace=runway-prod',
    ]);
  });

  it("sets the tag of Runway's own images only", () => {
    const out = customize(deployment('core'), 'core', {
      version: 'v0.2.0',
    }) as any;
    expect(
      out.spec.template.spec.containers.map((c: { image: string }) => c.image),
    ).toEqual(['ghcr.io/runway-portal/core:v0.2.0', 'busybox:1']);
  });
});

describe('providerBundleProblem', () => {
  const role: KubeObject = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'r' },
    rules: [
      {
        apiGroups: ['airunway.ai'],
        resources: ['inferenceproviderconfigs'],
        verbs: ['get'],
      },
    ],
  } as KubeObject;
  it('accepts a Deployment that may register itself', () => {
    expect(providerBundleProblem([deployment('p'), role])).toBeUndefined();
  });
  it('says what is missing', () => {
    expect(providerBundleProblem([])).toMatch(/no Kubernetes objects/);
    expect(providerBundleProblem([role])).toMatch(/no Deployment/);
    expect(providerBundleProblem([deployment('p')])).toMatch(
      /cannot register as a provider/,
    );
  });
});
