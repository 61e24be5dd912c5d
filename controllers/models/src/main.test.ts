import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { defaultLeaseName } from '@runway-portal/controller-runtime';
import { MODELS_PROGRAM } from './options';

describe('the shipped leader-election Role', () => {
  it('names the Lease the operator renews (the one `runway doctor` reads when there is no Deployment)', () => {
    const role = parseAllDocuments(
      fs.readFileSync(
        path.resolve(__dirname, '../../deploy/models/rbac.yaml'),
        'utf8',
      ),
    )
      .map(d => d.toJSON())
      .find(d => d?.kind === 'Role');
    expect(
      role.rules.filter(
        (r: { resources: string[]; resourceNames?: string[] }) =>
          r.resources.includes('leases') && r.resourceNames,
      ),
    ).toEqual([
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        resourceNames: [defaultLeaseName(MODELS_PROGRAM)],
        verbs: ['get', 'update'],
      },
    ]);
  });
});
