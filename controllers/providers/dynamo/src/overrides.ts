/**
 * Dynamo's `spec.provider.overrides` (seed 000 section 4.15): the keys it
 * knows, their types and defaults. Unknown keys at any depth are warnings
 * (typos such as `replicsa` must be visible); a known key of the wrong type
 * is an error that fails the reconcile with a status message.
 */

export const ROUTER_MODES = ['kv', 'round-robin', 'none'] as const;
export type RouterMode = (typeof ROUTER_MODES)[number];

export interface DynamoOverrides {
  routerMode: RouterMode;
  frontend: { replicas: number; resources: { cpu: string; memory: string } };
}

/** Seed 000 section 4.15 "Dynamo Defaults". */
export const DYNAMO_OVERRIDE_DEFAULTS: DynamoOverrides = {
  routerMode: 'round-robin',
  frontend: { replicas: 1, resources: { cpu: '2', memory: '4Gi' } },
};

export interface OverridesResult {
  overrides: DynamoOverrides;
  /** Unknown keys, as `spec.provider.overrides.<path>`. */
  warnings: string[];
  /** Wrong types or values, each naming the field and how to fix it. */
  errors: string[];
}

const PREFIX = 'spec.provider.overrides';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/** Warns about every key of `value` not in `known`. */
function unknownKeys(value: Record<string, unknown>, known: string[], path: string, warnings: string[]): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      warnings.push(`unknown key ${path}.${key} is ignored (Dynamo knows ${known.join(', ')})`);
    }
  }
}

/** Reads a nested object override, or reports it when it is not an object. */
function objectAt(parent: Record<string, unknown>, key: string, path: string, errors: string[]) {
  const value = parent[key];
  if (value === undefined) return undefined;
  if (isRecord(value)) return value;
  errors.push(`${path}.${key} must be an object, got ${typeName(value)}`);
  return undefined;
}

function quantityString(value: unknown, path: string, errors: string[]): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.trim() !== '') return value;
  errors.push(`${path} must be a quantity string such as "4" or "8Gi", got ${typeName(value)}`);
  return undefined;
}

/** Parses Dynamo overrides into a fully defaulted value plus warnings and errors. */
export function parseDynamoOverrides(raw: unknown): OverridesResult {
  const warnings: string[] = [];
  const errors: string[] = [];
  const overrides: DynamoOverrides = structuredClone(DYNAMO_OVERRIDE_DEFAULTS);
  if (raw === undefined || raw === null) return { overrides, warnings, errors };
  if (!isRecord(raw)) {
    errors.push(`${PREFIX} must be an object, got ${typeName(raw)}`);
    return { overrides, warnings, errors };
  }
  unknownKeys(raw, ['routerMode', 'frontend'], PREFIX, warnings);

  if (raw.routerMode !== undefined) {
    if (typeof raw.routerMode === 'string' && (ROUTER_MODES as readonly string[]).includes(raw.routerMode)) {
      overrides.routerMode = raw.routerMode as RouterMode;
    } else {
      errors.push(`${PREFIX}.routerMode must be one of ${ROUTER_MODES.join(', ')}, got ${JSON.stringify(raw.routerMode)}`);
    }
  }

  const frontend = objectAt(raw, 'frontend', PREFIX, errors);
  if (frontend) {
    const path = `${PREFIX}.frontend`;
    unknownKeys(frontend, ['replicas', 'resources'], path, warnings);
    if (frontend.replicas !== undefined) {
      if (Number.isInteger(frontend.replicas) && (frontend.replicas as number) >= 0) {
        overrides.frontend.replicas = frontend.replicas as number;
      } else {
        errors.push(`${path}.replicas must be a whole number >= 0, got ${JSON.stringify(frontend.replicas)}`);
      }
    }
    const resources = objectAt(frontend, 'resources', path, errors);
    if (resources) {
      unknownKeys(resources, ['cpu', 'memory'], `${path}.resources`, warnings);
      overrides.frontend.resources.cpu =
        quantityString(resources.cpu, `${path}.resources.cpu`, errors) ?? overrides.frontend.resources.cpu;
      overrides.frontend.resources.memory =
        quantityString(resources.memory, `${path}.resources.memory`, errors) ?? overrides.frontend.resources.memory;
    }
  }
  return { overrides, warnings, errors };
}
