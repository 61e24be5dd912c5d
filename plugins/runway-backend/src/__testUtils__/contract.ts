/**
 * Holds every answer a test receives to runway-common's REST contract: the
 * schemas the served OpenAPI document is derived from. A route that sends a
 * field the contract does not describe, or misses one it promises, fails the
 * request in the test that made it.
 */
import {
  answerMismatches,
  type RunwayOperationId,
} from '@runway-portal/plugin-runway-common';
import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent';

/** The operation a request is, from its method and path (the document's paths, under /api/runway). */
export function operationOf(
  method: string,
  url: string,
): RunwayOperationId | 'DeleteResource' | undefined {
  const path = new URL(url, 'http://x').pathname.replace(/^\/api\/runway/, '');
  const segments = path.split('/').filter(Boolean);
  const m = method.toUpperCase();
  if (segments[0] === 'openapi.json') return undefined;
  if (m === 'GET' && path === '/clusters') return 'ListClusters';
  if (m === 'GET' && path === '/hub/models') return 'SearchHub';
  if (m === 'GET' && segments[0] === 'clusters') {
    if (segments.length === 3 && segments[2] === 'storageclasses')
      return 'ListStorageClasses';
    if (segments.length === 3 && segments[2] === 'doctor')
      return 'GetClusterDoctor';
    if (segments.length === 5 && segments[4] === 'secrets')
      return 'ListSecretNames';
  }
  if (m === 'GET' && segments.length === 1) return 'ListResources';
  if (m === 'POST' && segments.length === 2) return 'CreateResource';
  if (m === 'POST' && segments.length === 3 && segments[2] === 'preview')
    return 'PreviewResource';
  const onOne = {
    GET: 'GetResource',
    PUT: 'UpdateResource',
    DELETE: 'DeleteResource',
  } as const;
  if (segments.length === 4) return onOne[m as keyof typeof onOne];
  if (m === 'GET' && segments.length === 5 && segments[4] === 'pods')
    return 'ListPods';
  if (m === 'GET' && segments.length === 5 && segments[4] === 'log')
    return 'ReadResourceLog';
  if (m === 'GET' && segments.length === 7 && segments[6] === 'log')
    return 'ReadPodLog';
  return undefined;
}

/** Throws, naming each field, when an answer departs from the contract. */
export function assertFitsContract(
  method: string,
  url: string,
  res: Pick<Response, 'status' | 'body'>,
): void {
  const op = operationOf(method, url);
  if (!op || (op === 'DeleteResource' && res.status === 204)) return;
  let mismatches: string[];
  if (res.status >= 400) mismatches = answerMismatches('ErrorBody', res.body);
  else if (op === 'DeleteResource')
    mismatches = [`answered ${res.status}, the contract says 204`];
  else mismatches = answerMismatches(op, res.body);
  if (mismatches.length > 0) {
    throw new Error(
      `${method} ${url} answered ${
        res.status
      } outside the REST contract (${op}): ${mismatches.join('; ')}`,
    );
  }
}

/** A supertest agent whose every answer is checked against the contract. */
export function contractChecked(agent: TestAgent): TestAgent {
  const methods = ['get', 'post', 'put', 'delete'] as const;
  return new Proxy(agent, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (!methods.includes(prop as (typeof methods)[number])) return value;
      return (url: string) => {
        const test = (
          value as (u: string) => ReturnType<TestAgent['get']>
        ).call(target, url);
        return test.expect(res => assertFitsContract(String(prop), url, res));
      };
    },
  });
}
