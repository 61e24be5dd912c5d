import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { memoryReporter } from './install/reporter';
import { run } from './program';

function io() {
  const reporter = memoryReporter();
  const out: string[] = [];
  return {
    reporter,
    out,
    io: { reporter, stdout: (t: string) => out.push(t) },
  };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'runway-cli-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A kubeconfig whose only context points at a port nothing listens on. */
function kubeconfig(): string {
  const file = path.join(tmp, 'kubeconfig');
  fs.writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "https://127.0.0.1:1" } }]
users: [{ name: u, user: { token: t } }]
contexts: [{ name: dev, context: { cluster: c, user: u } }]
current-context: dev
`,
  );
  return file;
}

describe('runway: bad input is one line and a non-zero exit, before touching a cluster', () => {
  it('an unknown provider name', async () => {
    const t = io();
    expect(
      await run(
        ['provider', 'install', 'nosuch', '--kubeconfig', kubeconfig()],
        t.io,
      ),
    ).toBe(1);
    expect(t.reporter.lines).toEqual([
      'runway: bad input: unknown provider "nosuch" (known: kaito, dynamo, kuberay, llmd); or give a folder, a YAML file or an http(s) URL of a provider bundle',
    ]);
  });

  it('a path that is not a provider bundle', async () => {
    const file = path.join(tmp, 'cm.yaml');
    fs.writeFileSync(
      file,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
    );
    const t = io();
    expect(
      await run(
        ['provider', 'install', file, '--kubeconfig', kubeconfig()],
        t.io,
      ),
    ).toBe(1);
    expect(t.reporter.lines).toEqual([
      `runway: bad input: ${file} is not a provider bundle: it has no Deployment (a provider runs as one)`,
    ]);
  });

  it('a path that does not exist', async () => {
    const t = io();
    expect(
      await run(
        [
          'provider',
          'install',
          './nowhere/provider.yaml',
          '--kubeconfig',
          kubeconfig(),
        ],
        t.io,
      ),
    ).toBe(1);
    expect(t.reporter.lines[0]).toMatch(
      /^runway: bad input: \.\/nowhere\/provider.yaml does not exist/,
    );
  });

  it('a URL that is not a provider bundle', async () => {
    const t = io();
    const fetchImpl = (async () =>
      new Response(
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
      )) as typeof fetch;
    expect(
      await run(
        [
          'provider',
          'install',
          'https://example.com/p.yaml',
          '--kubeconfig',
          kubeconfig(),
        ],
        { ...t.io, fetch: fetchImpl },
      ),
    ).toBe(1);
    expect(t.reporter.lines).toEqual([
      'runway: bad input: https://example.com/p.yaml is not a provider bundle: it has no Deployment (a provider runs as one)',
    ]);
  });

  it('a URL that does not answer with a bundle', async () => {
    const t = io();
    const fetchImpl = (async () =>
      new Response('not found', { status: 404 })) as typeof fetch;
    expect(
      await run(
        [
          'provider',
          'install',
          'https://example.com/missing.yaml',
          '--kubeconfig',
          kubeconfig(),
        ],
        { ...t.io, fetch: fetchImpl },
      ),
    ).toBe(1);
    expect(t.reporter.lines).toEqual([
      'runway: bad input: cannot fetch https://example.com/missing.yaml: HTTP 404',
    ]);
  });

  it('a kubeconfig without the context', async () => {
    const t = io();
    expect(
      await run(
        [
          'controller',
          'install',
          '--kubeconfig',
          kubeconfig(),
          '--context',
          'prod',
        ],
        t.io,
      ),
    ).toBe(1);
    expect(t.reporter.lines).toEqual([
      `runway: bad input: kubeconfig ${path.join(
        tmp,
        'kubeconfig',
      )} has no context "prod" (it has: dev): fix --context`,
    ]);
  });

  it('no cluster behind the kubeconfig', async () => {
    const t = io();
    expect(
      await run(['controller', 'install', '--kubeconfig', kubeconfig()], t.io),
    ).toBe(1);
    expect(t.reporter.lines.at(-1)).toMatch(
      /^runway: no cluster: cannot reach the API server at https:\/\/127.0.0.1:1 .*check --kubeconfig and --context$/,
    );
  });

  it('an unknown controller, and --help for every command', async () => {
    const t = io();
    expect(
      await run(
        ['controller', 'install', 'nosuch', '--kubeconfig', kubeconfig()],
        t.io,
      ),
    ).toBe(1);
    expect(t.reporter.lines.at(-1)).toBe(
      'runway: bad input: unknown controller "nosuch" (known: core, models, stacks)',
    );
    for (const cmd of [
      [],
      ['controller', 'install'],
      ['controller', 'upgrade'],
      ['controller', 'uninstall'],
      ['provider', 'install'],
      ['provider', 'list'],
      ['provider', 'uninstall'],
      ['install'],
      ['uninstall'],
      ['doctor'],
    ]) {
      const h = io();
      expect(await run([...cmd, '--help'], h.io)).toBe(0);
      expect(h.out.join('')).toMatch(/^Usage: runway/);
    }
  });
});
