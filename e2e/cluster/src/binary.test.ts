import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildLdflags,
  findGo,
  KUBE_SOURCE_DIR,
  KubeBuildError,
  kubernetesVersion,
  sourceKey,
} from './binary';

describe('binary cache key', () => {
  const files = [
    {
      name: 'go.mod',
      content: 'module x\nrequire k8s.io/kubernetes v1.36.3\n',
    },
    { name: 'main.go', content: 'package main' },
  ];

  it('does not depend on file order and changes with any content', () => {
    expect(sourceKey(files)).toBe(sourceKey([...files].reverse()));
    expect(sourceKey(files)).not.toBe(
      sourceKey([files[0], { name: 'main.go', content: 'package main\n' }]),
    );
  });

  it('stamps the Kubernetes version into the build, as release builds do', () => {
    const flags = buildLdflags('v1.36.3');
    expect(flags).toContain(
      '-X k8s.io/component-base/version.gitVersion=v1.36.3',
    );
    expect(flags).toContain('-X k8s.io/component-base/version.gitMajor=1');
    expect(flags).toContain('-X k8s.io/component-base/version.gitMinor=36');
  });

  it('reads the Kubernetes version of the go.mod in this package', () => {
    expect(kubernetesVersion(files[0].content)).toBe('v1.36.3');
    expect(
      kubernetesVersion(readFileSync(join(KUBE_SOURCE_DIR, 'go.mod'), 'utf8')),
    ).toMatch(/^v1\.\d+\.\d+$/);
    expect(() => kubernetesVersion('module x\n')).toThrow(
      /does not require k8s.io\/kubernetes/,
    );
  });
});

describe('findGo', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fake-go-'));
    writeFileSync(
      join(dir, 'old-go'),
      '#!/bin/sh\necho "go version go1.22.4 linux/amd64"\n',
      { mode: 0o755 },
    );
    writeFileSync(
      join(dir, 'new-go'),
      '#!/bin/sh\necho "go version go1.27.0 linux/amd64"\n',
      { mode: 0o755 },
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says which version is needed when Go is too old', async () => {
    await expect(findGo('1.26.0', [join(dir, 'old-go')])).rejects.toThrow(
      new RegExp(
        `Go 1\\.26\\.0 or newer is needed .* but ${join(
          dir,
          'old-go',
        )} is 1\\.22\\.4\\. Install a newer Go`,
      ),
    );
  });

  it('says so when no Go is installed', async () => {
    await expect(findGo('1.26.0', [join(dir, 'missing-go')])).rejects.toThrow(
      /Go 1\.26\.0 or newer is needed to build the Kubernetes binaries, but no Go was found \(tried .*missing-go\)/,
    );
  });

  it('takes the first Go that is new enough', async () => {
    await expect(
      findGo('1.26.0', [
        join(dir, 'missing-go'),
        join(dir, 'old-go'),
        join(dir, 'new-go'),
      ]),
    ).resolves.toBe(join(dir, 'new-go'));
  });
});

describe('KubeBuildError', () => {
  it('shows the failing command and its output', () => {
    const error = new KubeBuildError(
      'go build -o x .',
      'go: k8s.io/api@v0.99.0: not found',
      '/cache/build.log',
    );
    expect(error.message).toMatch(/command: go build -o x \./);
    expect(error.message).toMatch(/full log: \/cache\/build.log/);
    expect(error.message).toMatch(/go: k8s.io\/api@v0.99.0: not found$/);
  });
});
