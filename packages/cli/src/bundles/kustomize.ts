/**
 * A small renderer of our own kustomizations: `resources` lists of YAML files
 * and folders, recursively, with kustomize's two rules that matter here
 * (files must lie inside the kustomization's folder; one object per id).
 * We render rather than run kustomize: no kubectl or kustomize binary exists
 * on our build machines, and our bundles use nothing but `resources`. Any
 * other kustomize field fails loudly instead of being ignored.
 */
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '@runway-portal/controller-runtime';

/** What the renderer reads; `nodeFileSource` reads the disk. @public */
export interface FileSource {
  readFile(file: string): string;
  isDirectory(file: string): boolean;
  exists(file: string): boolean;
}

/** @public */
export interface RenderedObject {
  object: KubeObject;
  /** The file it came from. */
  source: string;
}

const KUSTOMIZATION_FILES = [
  'kustomization.yaml',
  'kustomization.yml',
  'Kustomization',
];
const SUPPORTED_FIELDS = new Set(['apiVersion', 'kind', 'resources']);

/** `group/Kind/namespace/name`: kustomize's notion of "the same object". @public */
export function objectId(object: KubeObject): string {
  const apiVersion = object.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  return `${group}/${object.kind}/${object.metadata?.namespace ?? ''}/${
    object.metadata?.name ?? ''
  }`;
}

/** Every object of a YAML text (empty documents dropped), or an error naming the file. */
export function parseObjects(text: string, source: string): RenderedObject[] {
  const out: RenderedObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) {
      throw new Error(`${source}: not valid YAML: ${doc.errors[0].message}`);
    }
    const object = doc.toJSON() as KubeObject | null;
    if (object === null || object === undefined) continue;
    if (
      typeof object !== 'object' ||
      !object.apiVersion ||
      !object.kind ||
      !object.metadata?.name
    ) {
      throw new Error(
        `${source}: a document is not a Kubernetes object (apiVersion, kind and metadata.name are required)`,
      );
    }
    out.push({ object, source });
  }
  return out;
}

/** The objects a kustomization folder renders to, in `resources` order. @public */
export function renderKustomization(
  dir: string,
  files: FileSource,
): RenderedObject[] {
  const rendered = renderDir(path.resolve(dir), files, []);
  const seen = new Map<string, string>();
  for (const { object, source } of rendered) {
    const id = objectId(object);
    const first = seen.get(id);
    if (first) {
      throw new Error(
        `${dir}: ${object.kind} ${object.metadata?.name} is defined twice (${first} and ${source}); kustomize refuses that: keep one`,
      );
    }
    seen.set(id, source);
  }
  return rendered;
}

function renderDir(
  dir: string,
  files: FileSource,
  stack: string[],
): RenderedObject[] {
  if (stack.includes(dir)) {
    throw new Error(
      `${dir}: kustomizations include each other in a cycle (${[
        ...stack,
        dir,
      ].join(' -> ')})`,
    );
  }
  const kfile = KUSTOMIZATION_FILES.map(name => path.join(dir, name)).find(f =>
    files.exists(f),
  );
  if (!kfile) {
    throw new Error(`${dir}: no kustomization.yaml in this folder`);
  }
  const docs = parseAllDocuments(files.readFile(kfile));
  const spec = (docs[0]?.toJSON() ?? {}) as Record<string, unknown>;
  const unsupported = Object.keys(spec).filter(
    key => !SUPPORTED_FIELDS.has(key),
  );
  if (unsupported.length > 0) {
    throw new Error(
      `${kfile}: uses ${unsupported.join(
        ', ',
      )}, which this renderer does not support: list objects under resources only`,
    );
  }
  const resources = spec.resources ?? [];
  if (!Array.isArray(resources) || resources.some(r => typeof r !== 'string')) {
    throw new Error(`${kfile}: resources must be a list of paths`);
  }
  const out: RenderedObject[] = [];
  for (const entry of resources as string[]) {
    const target = path.resolve(dir, entry);
    if (!files.exists(target)) {
      throw new Error(`${kfile}: resource ${entry} does not exist`);
    }
    if (files.isDirectory(target)) {
      out.push(...renderDir(target, files, [...stack, dir]));
      continue;
    }
    // kustomize's default load restrictor: files only from inside the folder.
    if (path.relative(dir, target).startsWith('..')) {
      throw new Error(
        `${kfile}: file ${entry} lies outside the kustomization's folder; kustomize refuses that: list its folder instead`,
      );
    }
    out.push(...parseObjects(files.readFile(target), target));
  }
  return out;
}
