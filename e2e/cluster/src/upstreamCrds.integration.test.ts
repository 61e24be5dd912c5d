import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import {
  isCrd,
  manifestFiles,
  parseManifests,
  type SourcedObject,
} from './manifests';
import { rawRequest } from './rawRequest';
import { startCluster, waitFor, type TestCluster } from './index';
import { PACKAGE_DIR } from './binary';
import { FIXTURES_DIR, START_TIMEOUT_MS } from './testing';

jest.setTimeout(60_000);

/** ../shared/upstream from the repository root (or $RUNWAY_UPSTREAM_DIR). */
const UPSTREAM =
  process.env.RUNWAY_UPSTREAM_DIR ??
  resolve(PACKAGE_DIR, '..', '..', '..', 'shared', 'upstream');
const CRD_DIRS = [join(UPSTREAM, 'crds'), join(UPSTREAM, 'airunway')];
const SAMPLE_DIRS = [join(UPSTREAM, 'samples'), join(UPSTREAM, 'airunway')];

/**
 * What the API server rejects, exactly. A difference from this file is a
 * change in upstream data or in Kubernetes: review it, then update the file
 * (RUNWAY_WRITE_UPSTREAM_FINDINGS=1 writes what the run found).
 */
const FINDINGS_FILE = join(FIXTURES_DIR, 'upstream-findings.json');

interface Findings {
  /** CRD file -> the API server's errors (sorted; their order varies between runs). */
  crdsRejected: Record<string, string[]>;
  /** `sample-file#document on crd-file` -> the API server's message. */
  samplesRejected: Record<string, string>;
  /** Sample documents whose kind and version no installed CRD serves (built-in kinds, Gateway API...). */
  samplesWithoutInstalledCrd: string[];
  /** Files among the samples that are not Kubernetes objects. */
  filesNotKubernetesObjects: Record<string, string>;
}

interface CrdVariant {
  file: string;
  name: string;
  group: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  served: string[];
}

function variantOf({ object, source }: SourcedObject): CrdVariant {
  const { spec, metadata } = object;
  return {
    file: source.replace(/#\d+$/, ''),
    name: metadata.name,
    group: spec.group,
    kind: spec.names.kind,
    plural: spec.names.plural,
    namespaced: spec.scope === 'Namespaced',
    served: spec.versions
      .filter((v: { served: boolean }) => v.served)
      .map((v: { name: string }) => v.name),
  };
}

/** `/abs/path/file.yaml#2` -> `file.yaml#2` */
const label = (source: string) => basename(source);

/** The individual errors of an "is invalid: [a, b, ...]" message, sorted. */
function crdErrors(message: string): string[] {
  const list = /is invalid: \[([\s\S]*)\]$/.exec(message)?.[1] ?? message;
  return list.split(/, (?=spec\.)/).sort();
}

/** Creates the sample with dryRun=All: defaulting, schema, CEL rules and admission run, nothing is stored. */
async function tryCreate(
  kubeConfig: KubeConfig,
  crd: CrdVariant,
  object: Record<string, any>,
) {
  const version = object.apiVersion.split('/')[1];
  const namespace = object.metadata?.namespace ?? 'default';
  const collection = crd.namespaced
    ? `/apis/${crd.group}/${version}/namespaces/${namespace}/${crd.plural}`
    : `/apis/${crd.group}/${version}/${crd.plural}`;
  const response = await rawRequest(
    kubeConfig,
    'POST',
    `${collection}?dryRun=All`,
    object,
  );
  return response.status < 300
    ? undefined
    : String(response.body?.message ?? response.body);
}

async function readVariants(): Promise<Map<string, CrdVariant[]>> {
  const byName = new Map<string, CrdVariant[]>();
  for (const file of await manifestFiles(CRD_DIRS)) {
    for (const manifest of parseManifests(
      await readFile(file, 'utf8'),
      file,
    ).filter(m => isCrd(m.object))) {
      const variant = variantOf(manifest);
      byName.set(variant.name, [...(byName.get(variant.name) ?? []), variant]);
    }
  }
  return byName;
}

describe('real upstream CRDs and samples', () => {
  let cluster: TestCluster;
  let expected: Findings;
  const found: Findings = {
    crdsRejected: {},
    samplesRejected: {},
    samplesWithoutInstalledCrd: [],
    filesNotKubernetesObjects: {},
  };
  let crdFiles: string[] = [];
  const installedFiles: string[] = [];
  let samplesTried = 0;

  beforeAll(async () => {
    if (!existsSync(UPSTREAM)) {
      throw new Error(
        `Upstream data not found at ${UPSTREAM}: check out ../shared next to the repository or set RUNWAY_UPSTREAM_DIR`,
      );
    }
    expected = JSON.parse(readFileSync(FINDINGS_FILE, 'utf8'));
    const started = await startCluster({ name: 'upstream-crds', nodes: [] });
    cluster = started;
    const kubeConfig = started.kubeConfig();

    const variantsByName = await readVariants();
    crdFiles = [...variantsByName.values()]
      .flat()
      .map(variant => basename(variant.file));

    const samples: SourcedObject[] = [];
    for (const file of await manifestFiles(SAMPLE_DIRS)) {
      try {
        samples.push(
          ...parseManifests(await readFile(file, 'utf8'), file).filter(
            m => !isCrd(m.object),
          ),
        );
      } catch (error) {
        found.filesNotKubernetesObjects[basename(file)] = (
          error as Error
        ).message.replace(`${file}`, '');
      }
    }
    const core = kubeConfig.makeApiClient(CoreV1Api);
    const namespaces = new Set(
      samples
        .map(s => s.object.metadata?.namespace)
        .filter(ns => ns && ns !== 'default'),
    );
    for (const name of namespaces)
      await core.createNamespace({ body: { metadata: { name } } });

    // Several files may define one CRD (versions of a project): round N
    // installs the N-th file of each, replacing the previous one, then tries
    // every sample whose kind and version it serves.
    const tried = new Set<string>();
    const rounds = Math.max(
      ...[...variantsByName.values()].map(variants => variants.length),
    );
    for (let round = 0; round < rounds; round++) {
      const variants = [...variantsByName.values()].flatMap(list =>
        list[round] ? [list[round]] : [],
      );
      if (round > 0) {
        // A CRD cannot drop a version it has stored, so delete it first.
        for (const { name } of variants) {
          const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`;
          await rawRequest(kubeConfig, 'DELETE', path);
          await waitFor(
            `CRD ${name} to be deleted`,
            async () =>
              (await rawRequest(kubeConfig, 'GET', path)).status === 404,
          );
        }
      }
      const outcomes = await Promise.allSettled(
        variants.map(variant => started.installCrds([variant.file])),
      );
      const established = variants.filter((variant, index) => {
        const outcome = outcomes[index];
        if (outcome.status === 'rejected') {
          found.crdsRejected[basename(variant.file)] = crdErrors(
            (outcome.reason as Error).message,
          );
          return false;
        }
        installedFiles.push(basename(variant.file));
        return true;
      });

      for (const sample of samples) {
        const [group, version] = sample.object.apiVersion.includes('/')
          ? sample.object.apiVersion.split('/')
          : ['', sample.object.apiVersion];
        const crd = established.find(
          v =>
            v.group === group &&
            v.kind === sample.object.kind &&
            v.served.includes(version),
        );
        if (!crd) continue;
        tried.add(sample.source);
        samplesTried++;
        const rejection = await tryCreate(kubeConfig, crd, sample.object);
        if (rejection)
          found.samplesRejected[
            `${label(sample.source)} on ${basename(crd.file)}`
          ] = rejection;
      }
    }
    found.samplesWithoutInstalledCrd = samples
      .filter(sample => !tried.has(sample.source))
      .map(
        sample =>
          `${label(sample.source)} ${sample.object.apiVersion}/${
            sample.object.kind
          }`,
      );

    if (process.env.RUNWAY_WRITE_UPSTREAM_FINDINGS) {
      writeFileSync(FINDINGS_FILE, `${JSON.stringify(found, null, 2)}\n`);
    }
  }, START_TIMEOUT_MS);
  afterAll(() => cluster?.stop());

  it('installs every upstream CRD except the known rejected ones', () => {
    expect(found.crdsRejected).toEqual(expected.crdsRejected);
    expect(
      [...installedFiles, ...Object.keys(found.crdsRejected)].sort(),
    ).toEqual([...crdFiles].sort());
    expect(installedFiles.length).toBeGreaterThanOrEqual(20);
  });

  it('accepts every sample for an installed CRD except the known rejected ones', () => {
    expect(found.samplesRejected).toEqual(expected.samplesRejected);
    expect(samplesTried).toBeGreaterThan(
      Object.keys(found.samplesRejected).length + 40,
    );
  });

  it('lists the sample documents that no installed CRD serves', () => {
    expect(found.samplesWithoutInstalledCrd).toEqual(
      expected.samplesWithoutInstalledCrd,
    );
    expect(found.filesNotKubernetesObjects).toEqual(
      expected.filesNotKubernetesObjects,
    );
  });
});
