import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KUBE_SOURCE_DIR, kubernetesVersion, sourceKey } from './binary';

describe('binary cache key', () => {
  const files = [
    { name: 'go.mod', content: 'module x\nrequire k8s.io/kubernetes v1.36.3\n' },
    { name: 'main.go', content: 'package main' },
  ];

  it('does not depend on file order and changes with any content', () => {
    expect(sourceKey(files)).toBe(sourceKey([...files].reverse()));
    expect(sourceKey(files)).not.toBe(sourceKey([files[0], { name: 'main.go', content: 'package main\n' }]));
  });

  it('reads the Kubernetes version of the go.mod in this package', () => {
    expect(kubernetesVersion(files[0].content)).toBe('v1.36.3');
    expect(kubernetesVersion(readFileSync(join(KUBE_SOURCE_DIR, 'go.mod'), 'utf8'))).toMatch(/^v1\.\d+\.\d+$/);
    expect(() => kubernetesVersion('module x\n')).toThrow(/does not require k8s.io\/kubernetes/);
  });
});
