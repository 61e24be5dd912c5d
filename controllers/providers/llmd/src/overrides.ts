/**
 * llm-d's `spec.provider.overrides`: which endpoint picker (EPP) the
 * InferencePool hands scheduling to, and the routing sidecar image of
 * disaggregated decode pods. Unknown keys at any depth are warnings; a known
 * key of the wrong type is an error naming the field.
 */

export interface LlmdOverrides {
  endpointPicker: { name?: string; port: number };
  routingSidecar: { image: string };
}

/** The GAIE inferencepool chart's EPP port (its Service is `<pool>-epp`). */
export const DEFAULT_EPP_PORT = 9002;
/** llm-d's routing sidecar, matching the default model-server image release. */
export const DEFAULT_ROUTING_SIDECAR_IMAGE = 'ghcr.io/llm-d/llm-d-routing-sidecar:v0.4.0';

export interface OverridesResult {
  overrides: LlmdOverrides;
  warnings: string[];
  errors: string[];
}

const PREFIX = 'spec.provider.overrides';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function typeName(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

function section(raw: Record<string, unknown>, key: string, known: string[], result: OverridesResult) {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    result.errors.push(`${PREFIX}.${key} must be an object, got ${typeName(value)}`);
    return undefined;
  }
  for (const k of Object.keys(value)) {
    if (!known.includes(k)) result.warnings.push(`unknown key ${PREFIX}.${key}.${k} is ignored (llm-d knows ${known.join(', ')})`);
  }
  return value;
}

function nonEmptyString(value: unknown, path: string, result: OverridesResult): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.trim() !== '') return value;
  result.errors.push(`${path} must be a non-empty string, got ${typeName(value)}`);
  return undefined;
}

export function parseLlmdOverrides(raw: unknown): OverridesResult {
  const result: OverridesResult = {
    overrides: { endpointPicker: { port: DEFAULT_EPP_PORT }, routingSidecar: { image: DEFAULT_ROUTING_SIDECAR_IMAGE } },
    warnings: [],
    errors: [],
  };
  if (raw === undefined || raw === null) return result;
  if (!isRecord(raw)) {
    result.errors.push(`${PREFIX} must be an object, got ${typeName(raw)}`);
    return result;
  }
  const known = ['endpointPicker', 'routingSidecar'];
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) result.warnings.push(`unknown key ${PREFIX}.${key} is ignored (llm-d knows ${known.join(', ')})`);
  }
  const epp = section(raw, 'endpointPicker', ['name', 'port'], result);
  if (epp) {
    result.overrides.endpointPicker.name = nonEmptyString(epp.name, `${PREFIX}.endpointPicker.name`, result);
    if (epp.port !== undefined) {
      if (Number.isInteger(epp.port) && (epp.port as number) >= 1 && (epp.port as number) <= 65535) {
        result.overrides.endpointPicker.port = epp.port as number;
      } else {
        result.errors.push(`${PREFIX}.endpointPicker.port must be a port number (1-65535), got ${JSON.stringify(epp.port)}`);
      }
    }
  }
  const sidecar = section(raw, 'routingSidecar', ['image'], result);
  if (sidecar) {
    result.overrides.routingSidecar.image =
      nonEmptyString(sidecar.image, `${PREFIX}.routingSidecar.image`, result) ?? DEFAULT_ROUTING_SIDECAR_IMAGE;
  }
  return result;
}
