import {
  admissionReviewSchema,
  conversionWebhook,
  isWellFormedAdmissionReview,
  jsonPatch,
  mutatingWebhook,
  validatingWebhook,
} from './reviews';

const review = (object: Record<string, unknown>, operation = 'CREATE') => ({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: 'uid-1',
    kind: { group: '', version: 'v1', kind: 'ConfigMap' },
    resource: { group: '', version: 'v1', resource: 'configmaps' },
    operation,
    userInfo: { username: 'admin' },
    object,
  },
});

const cm = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a', namespace: 'ns', labels: { 'a/b': 'x' } },
  data: { k: 'v' },
};

describe('validatingWebhook', () => {
  const handler = validatingWebhook(req =>
    (req.object as typeof cm).data.k === 'bad'
      ? {
          allowed: false,
          message: 'data.k must not be "bad": choose another value',
        }
      : { allowed: true, warnings: ['just so you know'] },
  );

  it('allows with warnings, echoing the uid', async () => {
    expect(await handler(review(cm))).toEqual({
      status: 200,
      body: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: {
          uid: 'uid-1',
          allowed: true,
          warnings: ['just so you know'],
        },
      },
    });
  });

  it('denies with the message and a 403 code', async () => {
    const reply = await handler(review({ ...cm, data: { k: 'bad' } }));
    expect((reply.body as any).response).toEqual({
      uid: 'uid-1',
      allowed: false,
      status: {
        code: 403,
        message: 'data.k must not be "bad": choose another value',
        reason: 'Forbidden',
      },
    });
  });

  it('denies with 500 when the validator throws, without crashing', async () => {
    const throwing = validatingWebhook(() => {
      throw new Error('kaboom');
    });
    expect(((await throwing(review(cm))).body as any).response).toMatchObject({
      allowed: false,
      status: { code: 500, message: 'validation failed: kaboom' },
    });
  });

  it('answers 400 naming the bad field of a malformed review', async () => {
    const reply = await handler({
      ...review(cm),
      request: { ...review(cm).request, uid: 5 },
    });
    expect(reply.status).toBe(400);
    expect((reply.body as any).error).toMatch(/AdmissionReview.*request\.uid/);
    expect((await handler('not json object')).status).toBe(400);
  });
});

describe('mutatingWebhook', () => {
  it('returns a base64 JSON patch of what the mutator changed', async () => {
    const handler = mutatingWebhook(obj => {
      obj.metadata!.labels!['added/by'] = 'hook';
      (obj.data as Record<string, string>).k = 'changed';
      return obj;
    });
    const response = ((await handler(review(cm))).body as any).response;
    expect(response.patchType).toBe('JSONPatch');
    const patch = JSON.parse(Buffer.from(response.patch, 'base64').toString());
    expect(patch).toEqual(
      expect.arrayContaining([
        { op: 'add', path: '/metadata/labels/added~1by', value: 'hook' },
        { op: 'replace', path: '/data/k', value: 'changed' },
      ]),
    );
    expect(patch).toHaveLength(2);
  });

  it('sends no patch when nothing changed and does not let the mutator touch the original', async () => {
    const input = review(cm);
    const handler = mutatingWebhook(obj => obj);
    const response = ((await handler(input)).body as any).response;
    expect(response).toEqual({ uid: 'uid-1', allowed: true });
    const sneaky = mutatingWebhook(() => undefined);
    expect(((await sneaky(input)).body as any).response.patch).toBeUndefined();
  });
  it('gives the mutator a deep copy: nested objects and arrays, and keys like __proto__ kept as data', async () => {
    const body = JSON.parse(
      JSON.stringify(
        review({
          ...cm,
          spec: { list: [{ a: 1 }, [2, null]], flag: true },
        }),
      ).replace('"data":{', '"data":{"__proto__":{"x":"y"},'),
    );
    const before = JSON.stringify(body);
    const unchanged = mutatingWebhook(obj => obj);
    expect(((await unchanged(body)).body as any).response).toEqual({
      uid: 'uid-1',
      allowed: true,
    });
    const handler = mutatingWebhook(obj => {
      ((obj.spec as any).list[0] as any).a = 2;
      (obj.spec as any).list[1].push(3);
      return obj;
    });
    const response = ((await handler(body)).body as any).response;
    expect(
      JSON.parse(Buffer.from(response.patch, 'base64').toString()),
    ).toEqual(
      expect.arrayContaining([
        { op: 'replace', path: '/spec/list/0/a', value: 2 },
        { op: 'add', path: '/spec/list/1/2', value: 3 },
      ]),
    );
    expect(JSON.stringify(body)).toBe(before);
  });
});

describe('jsonPatch', () => {
  it('escapes keys and handles removals', () => {
    expect(jsonPatch({ a: { 'x/y': 1, z: 2 } }, { a: { 'x/y': 1 } })).toEqual([
      { op: 'remove', path: '/a/z' },
    ]);
  });
});

describe('conversionWebhook', () => {
  const creview = (objects: object[]) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid: 'c1', desiredAPIVersion: 'example.com/v2', objects },
  });
  const v1 = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', uid: 'u' },
    spec: { size: 3 },
  };

  it('converts each object and stamps the desired apiVersion', async () => {
    const handler = conversionWebhook(obj => ({
      ...obj,
      spec: { dimensions: { size: (obj.spec as any).size } },
    }));
    const response = (
      (await handler(creview([v1, { ...v1, apiVersion: 'example.com/v2' }])))
        .body as any
    ).response;
    expect(response.result).toEqual({ status: 'Success' });
    expect(response.uid).toBe('c1');
    expect(response.convertedObjects[0]).toEqual({
      ...v1,
      apiVersion: 'example.com/v2',
      spec: { dimensions: { size: 3 } },
    });
    expect(response.convertedObjects[1].spec).toEqual({ size: 3 }); // already in the desired version
  });

  it('fails the review with the converter message', async () => {
    const handler = conversionWebhook(() => {
      throw new Error('spec.size is required to convert to v2');
    });
    expect(
      ((await handler(creview([v1]))).body as any).response.result,
    ).toEqual({
      status: 'Failure',
      message: 'spec.size is required to convert to v2',
    });
  });
});

describe('isWellFormedAdmissionReview (the check without zod)', () => {
  const base = {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'u',
      kind: {
        group: 'airunway.ai',
        version: 'v1alpha1',
        kind: 'ModelDeployment',
      },
      resource: {
        group: 'airunway.ai',
        version: 'v1alpha1',
        resource: 'modeldeployments',
      },
      requestKind: {
        group: 'airunway.ai',
        version: 'v1alpha1',
        kind: 'ModelDeployment',
      },
      subResource: 'status',
      name: 'md-1',
      namespace: 'ns',
      operation: 'UPDATE',
      userInfo: { username: 'admin', groups: ['system:masters'], uid: 'x' },
      object: { metadata: { name: 'md-1' } },
      oldObject: null,
      dryRun: true,
      options: { kind: 'UpdateOptions' },
    },
  };
  const bad: unknown[] = [undefined, null, 'x', 1, true, [], {}, { a: 1 }, [1]];
  /** The base review with one field (a path) set to each of `bad`, and removed. */
  function variants(): unknown[] {
    const paths = [
      ['apiVersion'],
      ['kind'],
      ['request'],
      ...Object.keys(base.request).map(k => ['request', k]),
      ['request', 'kind', 'group'],
      ['request', 'kind', 'kind'],
      ['request', 'resource', 'resource'],
      ['request', 'userInfo', 'username'],
      ['request', 'userInfo', 'groups'],
    ];
    const out: unknown[] = [];
    for (const path of paths) {
      for (const value of [...bad, 'REMOVE', '', 'CREATE', ['a', 1]]) {
        const copy = JSON.parse(JSON.stringify(base));
        let holder = copy;
        for (const key of path.slice(0, -1)) holder = holder[key];
        if (value === 'REMOVE') delete holder[path.at(-1)!];
        else holder[path.at(-1)!] = value;
        out.push(copy);
      }
    }
    return [...out, ...bad];
  }

  it('accepts what the API server sends', () => {
    expect(isWellFormedAdmissionReview(base)).toBe(true);
    expect(admissionReviewSchema.safeParse(base).success).toBe(true);
  });

  it("accepts nothing the schema refuses (so the 400s stay the schema's)", () => {
    const all = variants();
    expect(all.length).toBeGreaterThan(200);
    const acceptedButRefused = all.filter(
      v =>
        isWellFormedAdmissionReview(v) &&
        !admissionReviewSchema.safeParse(v).success,
    );
    expect(acceptedButRefused).toEqual([]);
    // And it is not vacuous: it refuses most of them.
    expect(
      all.filter(v => !isWellFormedAdmissionReview(v)).length,
    ).toBeGreaterThan(100);
  });
});
