/**
 * The install manifests (controllers/deploy/stacks) agree with the code: the
 * CRD's conversion stanza points at the Service deployed there, the webhook
 * paths and the names the process uses are the ones RBAC allows.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  STACK_CONVERSION_SERVICE,
  stackCrd,
} from '@runway-portal/plugin-runway-common';
import { parse, parseAllDocuments } from 'yaml';
import {
  CERT_SECRET,
  SPEC_CHANGED_CONDITION,
  STACK_CRD,
  VALIDATING_CONFIG,
  validatingConfiguration,
} from './main';
import { CONVERT_PATH, VALIDATE_PATH } from './webhooks';
import { OPERATOR_POD_LABELS } from './objects';

const DEPLOY = path.resolve(__dirname, '../../deploy/stacks');
const docs = (file: string) =>
  parseAllDocuments(readFileSync(path.join(DEPLOY, file), 'utf8'))
    .map(d => d.toJSON())
    .filter(Boolean);
const resources = () =>
  parse(readFileSync(path.join(DEPLOY, 'kustomization.yaml'), 'utf8'))
    .resources as string[];
// The bundle's own files; `../namespace` and `../crds` are shared folders.
const all = () =>
  resources()
    .filter(r => r.endsWith('.yaml'))
    .flatMap(docs);
const find = (kind: string, name?: string) =>
  all().find(
    (o: any) => o.kind === kind && (!name || o.metadata.name === name),
  );

describe('controllers/deploy/stacks', () => {
  it("labels the operator's pods as allowedFrom's NetworkPolicy admits them (the health probe)", () => {
    const deployment = find('Deployment') as any;
    expect(deployment.spec.template.metadata.labels).toMatchObject(
      OPERATOR_POD_LABELS,
    );
  });

  it('includes the shared namespace (airunway-system) and CRDs, so it installs on a fresh cluster', () => {
    expect(resources()).toEqual(
      expect.arrayContaining(['../namespace', '../crds']),
    );
    expect(
      parse(
        readFileSync(
          path.resolve(DEPLOY, '../namespace/namespace.yaml'),
          'utf8',
        ),
      ),
    ).toMatchObject({
      kind: 'Namespace',
      metadata: { name: 'airunway-system' },
    });
  });

  it('deploys the Service the generated CRD converts through', () => {
    const crd = parse(
      readFileSync(
        path.resolve(
          __dirname,
          '../../deploy/crds/llamastack.io_llamastackdistributions.yaml',
        ),
        'utf8',
      ),
    );
    expect(crd.metadata.name).toBe(STACK_CRD);
    expect(crd.spec.conversion.webhook.clientConfig.service).toEqual(
      STACK_CONVERSION_SERVICE,
    );
    expect((stackCrd.conversion as any)?.webhook?.clientConfig.service).toEqual(
      STACK_CONVERSION_SERVICE,
    );
    expect(STACK_CONVERSION_SERVICE.path).toBe(CONVERT_PATH);
    const service = find('Service', STACK_CONVERSION_SERVICE.name);
    expect(service.metadata.namespace).toBe(STACK_CONVERSION_SERVICE.namespace);
    expect(service.spec.ports).toContainEqual({
      name: 'webhook',
      port: STACK_CONVERSION_SERVICE.port,
      targetPort: 'webhook',
    });
    const deployment = find('Deployment', 'airunway-stacks');
    expect(service.spec.selector).toEqual({
      'app.kubernetes.io/name':
        deployment.spec.template.metadata.labels['app.kubernetes.io/name'],
    });
    expect(deployment.spec.template.spec.containers[0].ports).toContainEqual({
      name: 'webhook',
      containerPort: 9443,
    });
  });

  it('registers the validating webhook with failurePolicy Ignore on both versions', () => {
    const vwc = find('ValidatingWebhookConfiguration', VALIDATING_CONFIG);
    expect(vwc.webhooks[0]).toMatchObject({
      failurePolicy: 'Ignore',
      clientConfig: {
        service: {
          name: STACK_CONVERSION_SERVICE.name,
          namespace: 'airunway-system',
          path: VALIDATE_PATH,
          port: 443,
        },
      },
      rules: [
        {
          apiGroups: ['llamastack.io'],
          apiVersions: ['v1alpha1', 'v1alpha2'],
          resources: ['llamastackdistributions'],
        },
      ],
    });
  });

  it('calls the webhook only for creates and spec changes, in the bundle and in url mode alike', () => {
    const vwc = find('ValidatingWebhookConfiguration', VALIDATING_CONFIG);
    expect(vwc.webhooks[0].matchConditions).toEqual([SPEC_CHANGED_CONDITION]);
    expect(
      validatingConfiguration({ url: 'https://127.0.0.1:9443' }).webhooks[0]
        .matchConditions,
    ).toEqual([SPEC_CHANGED_CONDITION]);
  });

  it('gives RBAC for exactly the names the process uses, and Secrets get only', () => {
    const clusterRole = find('ClusterRole', 'airunway-stacks');
    const rule = (resource: string) =>
      clusterRole.rules.filter((r: any) => r.resources.includes(resource));
    expect(rule('secrets')).toEqual([
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
    ]);
    // The ServiceAccount's imagePullSecrets for the registry read (FR-027h): get only.
    expect(rule('serviceaccounts')).toEqual([
      { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['get'] },
    ]);
    expect(rule('customresourcedefinitions')[0].resourceNames).toEqual([
      STACK_CRD,
    ]);
    expect(rule('validatingwebhookconfigurations')[0].resourceNames).toEqual([
      VALIDATING_CONFIG,
    ]);
    const role = find('Role', 'airunway-stacks');
    expect(role.rules).toContainEqual({
      apiGroups: [''],
      resources: ['secrets'],
      resourceNames: [CERT_SECRET],
      verbs: ['get', 'update'],
    });
    expect(role.rules).toContainEqual({
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      resourceNames: ['airunway-stacks-leader'],
      verbs: ['get', 'update'],
    });
  });
});
