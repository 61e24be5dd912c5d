/**
 * Structural validation of any value against a TypeBox schema, reported as
 * ValidationIssues that name the field and say what is expected. This is what
 * the API server checks with a CRD's openAPIV3Schema (types, enums, required,
 * ranges, patterns); semantic rules live in each resource's validator.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import {
  FREE_FORM_KIND,
  INT_OR_STRING_KIND,
  NAME_OR_OBJECT_KIND,
  STRING_ENUM_KIND,
} from './kinds';
import { error, joinPath, type ValidationIssue, warning } from './issues';
import { QUANTITY_PATTERN } from './quantity';
import { isRecord } from './json';

interface Checker {
  Check(value: unknown): boolean;
  Errors(value: unknown): Iterable<ValueError>;
}

const checkers = new WeakMap<TSchema, Checker>();

/** Compiles a schema once (TypeBox code generation), falling back to the interpreter where `new Function` is forbidden (strict CSP). */
function checkerFor(schema: TSchema): Checker {
  let checker = checkers.get(schema);
  if (!checker) {
    try {
      const compiled: TypeCheck<TSchema> = TypeCompiler.Compile(schema);
      checker = compiled;
    } catch {
      checker = {
        Check: value => Value.Check(schema, value),
        Errors: value => Value.Errors(schema, value),
      };
    }
    checkers.set(schema, checker);
  }
  return checker;
}

/** Turns a JSON pointer (`/spec/env/0/name`) into the dotted form (`spec.env[0].name`), under `base`. @public */
export function pointerToPath(pointer: string, base = ''): string {
  if (pointer === '' || pointer === '/') return base;
  return pointer
    .slice(1)
    .split('/')
    .map(part => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<string>(
      (path, part) =>
        joinPath(path, /^(0|[1-9][0-9]*)$/.test(part) ? Number(part) : part),
      base,
    );
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return `"${value.length > 60 ? `${value.slice(0, 57)}...` : value}"`;
  return `${typeof value} ${String(value)}`;
}

function customKindMessage(
  schema: Record<string | symbol, any>,
  value: unknown,
): string {
  switch (schema[Kind]) {
    case STRING_ENUM_KIND:
      return `must be one of: ${schema.enum.join(', ')} (got ${describe(
        value,
      )})`;
    case INT_OR_STRING_KIND:
      return schema.pattern === QUANTITY_PATTERN
        ? `must be a Kubernetes quantity such as 4, 500m or 16Gi (got ${describe(
            value,
          )})`
        : `must be an integer or a string${
            schema.pattern ? ` matching ${schema.pattern}` : ''
          } (got ${describe(value)})`;
    case FREE_FORM_KIND:
      return `must be an object (got ${describe(value)})`;
    case NAME_OR_OBJECT_KIND:
      return `must be one of: ${schema.anyOf[0].enum.join(
        ', ',
      )}, or an object with one of them as its name (got ${describe(value)})`;
    default:
      return `is not valid (got ${describe(value)})`;
  }
}

// Errors reported for a value that is simply missing, in addition to the "is required" one.
const FOLLOW_UPS_OF_MISSING = new Set([
  ValueErrorType.String,
  ValueErrorType.Integer,
  ValueErrorType.Number,
  ValueErrorType.Boolean,
  ValueErrorType.Object,
  ValueErrorType.Array,
  ValueErrorType.Kind,
  ValueErrorType.Union,
]);

function messageFor(e: ValueError): string {
  const s = e.schema as Record<string | symbol, any>;
  if (typeof s.errorMessage === 'string') return s.errorMessage;
  const got = `(got ${describe(e.value)})`;
  // A required property set to undefined is simply missing once serialised to JSON.
  if (e.value === undefined && FOLLOW_UPS_OF_MISSING.has(e.type))
    return 'is required';
  switch (e.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.String:
      return `must be a string ${got}`;
    case ValueErrorType.Integer:
      return `must be a whole number ${got}`;
    case ValueErrorType.Number:
      return `must be a number ${got}`;
    case ValueErrorType.Boolean:
      return `must be true or false ${got}`;
    case ValueErrorType.Object:
      return `must be an object ${got}`;
    case ValueErrorType.Array:
      return `must be a list ${got}`;
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be at least ${s.minimum} ${got}`;
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `must be at most ${s.maximum} ${got}`;
    case ValueErrorType.StringMinLength:
      return s.minLength === 1
        ? 'must not be empty'
        : `must be at least ${s.minLength} characters long ${got}`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${s.maxLength} characters long (got ${
        String(e.value).length
      })`;
    case ValueErrorType.StringPattern:
      return `${describe(e.value)} does not match the required format ${
        s.pattern
      }`;
    case ValueErrorType.StringFormat:
    case ValueErrorType.StringFormatUnknown:
      return s.format === 'date-time'
        ? `must be an RFC 3339 timestamp such as 2025-01-31T12:00:00Z ${got}`
        : `must be in ${s.format} format ${got}`;
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${s.minItems} item${
        s.minItems === 1 ? '' : 's'
      }`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${s.maxItems} items (got ${
        (e.value as unknown[]).length
      })`;
    case ValueErrorType.ObjectMinProperties:
      return `must have at least ${s.minProperties} entr${
        s.minProperties === 1 ? 'y' : 'ies'
      }`;
    case ValueErrorType.ObjectMaxProperties:
      return `must have at most ${s.maxProperties} entries`;
    case ValueErrorType.Kind:
      return customKindMessage(s, e.value);
    default:
      return `is not valid: ${e.message} ${got}`;
  }
}

/**
 * Checks `value` against `schema`. Errors name the field under `basePath`
 * (use `''` when the value is a whole object, `'spec'` when it is a spec).
 * Unknown fields become warnings: the API server prunes them silently.
 *
 * @public
 */
export function structuralIssues(
  schema: TSchema,
  value: unknown,
  basePath = '',
): ValidationIssue[] {
  const checker = checkerFor(schema);
  const issues: ValidationIssue[] = [];
  if (!checker.Check(value)) {
    const seen = new Set<string>();
    const missing = new Set<string>();
    for (const e of checker.Errors(value)) {
      const path = pointerToPath(e.path, basePath) || '(root)';
      if (missing.has(path) && FOLLOW_UPS_OF_MISSING.has(e.type)) continue;
      const nested = objectOfNameOrObject(e);
      if (nested) {
        // Name-or-object written as an object: report that object's own fields.
        for (const issue of structuralIssues(nested, e.value, path))
          if (issue.severity === 'error' && !seen.has(issue.message)) {
            seen.add(issue.message);
            issues.push(issue);
          }
        continue;
      }
      if (e.type === ValueErrorType.ObjectRequiredProperty) missing.add(path);
      const message = `${path} ${messageFor(e)}`;
      if (seen.has(message)) continue;
      seen.add(message);
      issues.push(error(path, message));
    }
  }
  unknownFields(schema, value, basePath, issues);
  return issues;
}

/** The object schema of a name-or-object node whose value was written as an object. */
function objectOfNameOrObject(e: ValueError): TSchema | undefined {
  const s = e.schema as Record<string | symbol, any>;
  return e.type === ValueErrorType.Kind &&
    s[Kind] === NAME_OR_OBJECT_KIND &&
    isRecord(e.value)
    ? s.anyOf[1]
    : undefined;
}

/** Walks the value along the schema and warns about fields the schema does not declare. */
function unknownFields(
  schema: TSchema,
  value: unknown,
  path: string,
  issues: ValidationIssue[],
): void {
  const s = schema as Record<string | symbol, any>;
  if (s[Kind] === NAME_OR_OBJECT_KIND) {
    if (isRecord(value)) unknownFields(s.anyOf[1], value, path, issues);
    return;
  }
  if (s['x-kubernetes-preserve-unknown-fields']) return;
  if (Array.isArray(value) && s.items) {
    value.forEach((item, i) =>
      unknownFields(s.items, item, joinPath(path, i), issues),
    );
    return;
  }
  if (!isRecord(value)) return;
  if (s.patternProperties) {
    const [inner] = Object.values(s.patternProperties) as TSchema[];
    for (const [key, item] of Object.entries(value)) {
      unknownFields(inner, item, joinPath(path, key), issues);
    }
    return;
  }
  if (!s.properties) return;
  for (const [key, item] of Object.entries(value)) {
    const child = s.properties[key];
    if (child) {
      unknownFields(child, item, joinPath(path, key), issues);
    } else if (
      s.additionalProperties === undefined ||
      s.additionalProperties === false
    ) {
      const where = joinPath(path, key);
      issues.push(
        warning(
          where,
          `${where} is not a known field and would be dropped by the API server; check its spelling or remove it`,
        ),
      );
    }
  }
}

/** True when the value passes the structural check (no errors; warnings allowed). @public */
export function conforms(schema: TSchema, value: unknown): boolean {
  return checkerFor(schema).Check(value);
}
