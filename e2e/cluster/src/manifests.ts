import { readFile, readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** A Kubernetes object read from a file, with where it came from. */
export interface SourcedObject {
  object: Record<string, any>;
  /** `path#index` (index of the YAML document in its file, from 0). */
  source: string;
}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Files given, plus every .yaml/.yml/.json file under folders given (sorted). */
export async function manifestFiles(
  paths: readonly string[],
): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch {
      throw new Error(
        `Manifest path ${path} does not exist: pass a YAML/JSON file or a folder of them`,
      );
    }
    if (info.isDirectory()) {
      const entries = await readdir(path, {
        recursive: true,
        withFileTypes: true,
      });
      files.push(
        ...entries
          .filter(
            entry =>
              entry.isFile() && MANIFEST_EXTENSIONS.has(extname(entry.name)),
          )
          .map(entry => join(entry.parentPath, entry.name))
          .sort(),
      );
    } else {
      files.push(path);
    }
  }
  return files;
}

/** Every object of a multi-document YAML (or JSON) text; empty documents skipped. */
export function parseManifests(text: string, file: string): SourcedObject[] {
  const objects: SourcedObject[] = [];
  parseAllDocuments(text).forEach((document, index) => {
    const source = `${file}#${index}`;
    if (document.errors.length > 0) {
      throw new Error(
        `${source} is not valid YAML: ${document.errors[0].message}`,
      );
    }
    const object = document.toJS({ maxAliasCount: 1000 });
    if (object === null || object === undefined) return;
    if (
      typeof object !== 'object' ||
      Array.isArray(object) ||
      !object.kind ||
      !object.apiVersion
    ) {
      throw new Error(
        `${source} is not a Kubernetes object: it needs apiVersion and kind at the top level`,
      );
    }
    objects.push({ object, source });
  });
  return objects;
}

export async function readManifests(
  paths: readonly string[],
): Promise<SourcedObject[]> {
  const all: SourcedObject[] = [];
  for (const file of await manifestFiles(paths)) {
    all.push(...parseManifests(await readFile(file, 'utf8'), file));
  }
  return all;
}

export function isCrd(object: Record<string, any>): boolean {
  return (
    object.kind === 'CustomResourceDefinition' &&
    typeof object.apiVersion === 'string' &&
    object.apiVersion.startsWith('apiextensions.k8s.io/')
  );
}
