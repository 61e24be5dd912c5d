/**
 * What a custom resource definition is made of, in this project's terms. Each
 * resource module exports one `CrdDefinition`; `renderCrd` turns it into the
 * CustomResourceDefinition object and `renderTypes` into TypeScript types.
 */
import type { TSchema } from '@sinclair/typebox';

/** @public */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  format?: string;
  /** 0 shows in `kubectl get`, higher only with `-o wide`. */
  priority?: number;
}

/** @public */
export interface CrdSubresources {
  status?: boolean;
  scale?: {
    specReplicasPath: string;
    statusReplicasPath: string;
    labelSelectorPath?: string;
  };
}

/** @public */
export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  /** TypeBox schema of the whole object: apiVersion, kind, metadata, spec, status. */
  schema: TSchema;
  printerColumns?: PrinterColumn[];
  subresources?: CrdSubresources;
  deprecated?: boolean;
  deprecationWarning?: string;
}

/** @public */
export interface CrdDefinition {
  group: string;
  names: {
    kind: string;
    plural: string;
    singular: string;
    listKind?: string;
    shortNames?: string[];
    categories?: string[];
  };
  scope: 'Namespaced' | 'Cluster';
  versions: CrdVersion[];
  /** Passed through verbatim (e.g. a Webhook conversion strategy). */
  conversion?: Record<string, unknown>;
}

/** `<group>/<version>` of a definition's version, e.g. `airunway.ai/v1alpha1`. @public */
export function apiVersionOf(def: CrdDefinition, version: string): string {
  return `${def.group}/${version}`;
}
