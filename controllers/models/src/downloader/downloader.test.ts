/**
 * The downloader as a real process (as the Job's container runs it) against
 * real local servers on loopback: the hub stand-in (HF_ENDPOINT), a plain
 * HTTP server, and s3rver (a real S3-compatible server).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  startHubStandIn,
  type HubStandIn,
} from '@runway-portal/e2e-simulators';
import {
  S3_KEYS,
  runDownloader,
  startFileServer,
  startS3Server,
  type FileServer,
  type S3Server,
} from '../__testUtils__/servers';
import { storageSizeBytes } from './config';
import { MARKER_FILE } from './download';

const MB = 1024 * 1024;
const weights = randomBytes(3 * MB);
const shards = [randomBytes(2 * MB), randomBytes(MB + 17)];
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const TIMEOUT = 60_000;

let tmp: string;
let hub: HubStandIn;
let cuttingHub: HubStandIn;
let files: FileServer;
let s3: S3Server;

function dest(name: string) {
  return path.join(tmp, name);
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'models-downloader-'));
  const repos = {
    'acme/tiny': {
      files: {
        'config.json': '{"model_type":"llama"}',
        'model.safetensors': weights,
      },
    },
    'acme/gated': { files: { 'model.safetensors': weights }, gated: true },
  };
  hub = await startHubStandIn({ repos, token: 'hf_good' });
  cuttingHub = await startHubStandIn({ repos, cutDownloadsAfterBytes: MB });
  files = await startFileServer({ '/m/tiny.gguf': weights });
  s3 = await startS3Server(path.join(tmp, 's3rver'), ['models']);
  await s3.put('models', 'llama/model-00001.safetensors', shards[0]);
  await s3.put('models', 'llama/sub/model-00002.safetensors', shards[1]);
}, TIMEOUT);

afterAll(async () => {
  await Promise.all([
    hub?.close(),
    cuttingHub?.close(),
    files?.close(),
    s3?.close(),
  ]);
  fs.rmSync(tmp, { recursive: true, force: true });
});

const hf = (d: string, extra: Record<string, string> = {}) => ({
  MODEL_SOURCE: 'huggingface',
  HF_REPO_ID: 'acme/tiny',
  HF_ENDPOINT: hub.url,
  MODEL_DEST: d,
  MODEL_STORAGE_SIZE: '1Gi',
  ...extra,
});

describe('the downloader process', () => {
  it(
    'HuggingFace: every file, sha256 verified, marker last, progress lines with bytes, speed and ETA',
    async () => {
      const d = dest('hf');
      const run = await runDownloader(hf(d));
      expect(run).toMatchObject({ code: 0 });
      expect(
        fs.readFileSync(path.join(d, 'model.safetensors')).equals(weights),
      ).toBe(true);
      expect(fs.readFileSync(path.join(d, 'config.json'), 'utf8')).toBe(
        '{"model_type":"llama"}',
      );
      expect(
        JSON.parse(fs.readFileSync(path.join(d, MARKER_FILE), 'utf8')),
      ).toMatchObject({
        source: 'huggingface:acme/tiny@main',
        files: expect.arrayContaining([
          {
            path: 'model.safetensors',
            size: weights.length,
            sha256: sha(weights),
          },
        ]),
      });
      expect(fs.existsSync(path.join(d, '.partial'))).toBe(false);
      const progress = run.lines.filter(l => l.event === 'progress');
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)).toMatchObject({
        bytesDone: weights.length + 22,
        bytesTotal: weights.length + 22,
        percent: 100,
      });
      expect(run.lines.at(-1)).toMatchObject({
        event: 'done',
        bytesTotal: weights.length + 22,
        files: 2,
      });

      // A second run (a retried Job) finds the marker and downloads nothing.
      const before = hub.requests.length;
      expect((await runDownloader(hf(d))).code).toBe(0);
      expect(
        hub.requests.slice(before).filter(r => r.path.includes('/resolve/')),
      ).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'HuggingFace: a dropped connection fails the attempt (exit 1); the next resumes with Range and verifies sha256',
    async () => {
      const d = dest('hf-resume');
      const first = await runDownloader(hf(d, { HF_ENDPOINT: cuttingHub.url }));
      expect(first.code).toBe(1);
      expect(first.error).toMatch(
        new RegExp(
          `^model\\.safetensors: the connection dropped after ${MB} bytes.*; retrying resumes from there$`,
        ),
      );
      expect(
        fs.statSync(path.join(d, '.partial', 'model.safetensors')).size,
      ).toBe(MB);
      expect(fs.existsSync(path.join(d, MARKER_FILE))).toBe(false);

      const second = await runDownloader(
        hf(d, { HF_ENDPOINT: cuttingHub.url }),
      );
      expect(second).toMatchObject({ code: 0 });
      expect(cuttingHub.requests).toContainEqual(
        expect.objectContaining({
          path: '/acme/tiny/resolve/main/model.safetensors',
          range: `bytes=${MB}-`,
        }),
      );
      expect(sha(fs.readFileSync(path.join(d, 'model.safetensors')))).toBe(
        sha(weights),
      );
    },
    TIMEOUT,
  );

  it(
    'HuggingFace: a gated model without a token fails at once naming spec.credentialsSecret and HF_TOKEN; with the token it works',
    async () => {
      const run = await runDownloader(
        hf(dest('gated'), { HF_REPO_ID: 'acme/gated' }),
      );
      expect(run.code).toBe(2);
      expect(run.error).toBe(
        'HuggingFace answered 401 for acme/gated: it is gated or private and no token was given: create a Secret with key HF_TOKEN (a token with access) and name it in spec.credentialsSecret',
      );
      expect(fs.readdirSync(tmp)).not.toContain('gated'); // nothing written
      const wrong = await runDownloader(
        hf(dest('gated'), { HF_REPO_ID: 'acme/gated', HF_TOKEN: 'hf_bad' }),
      );
      expect(wrong.error).toContain(
        'the token in key HF_TOKEN of the Secret named by spec.credentialsSecret was refused',
      );
      expect(
        (
          await runDownloader(
            hf(dest('gated'), {
              HF_REPO_ID: 'acme/gated',
              HF_TOKEN: 'hf_good',
            }),
          )
        ).code,
      ).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'HuggingFace: an unknown repository fails at once (404) naming spec.source.huggingFace.repoId',
    async () => {
      const run = await runDownloader(
        hf(dest('missing'), { HF_REPO_ID: 'acme/nope' }),
      );
      expect(run.code).toBe(2);
      expect(run.error).toContain(
        'check spec.source.huggingFace.repoId and revision',
      );
    },
    TIMEOUT,
  );

  it(
    'fails fast, before writing, when the model does not fit spec.storage.size',
    async () => {
      const d = dest('too-big');
      const run = await runDownloader(hf(d, { MODEL_STORAGE_SIZE: '2M' }));
      expect(run.code).toBe(2);
      expect(run.error).toBe(
        'the model needs 3.0 MiB (2 file(s)) but spec.storage.size is 2M (1.9 MiB): set spec.storage.size to at least 1Gi',
      );
      expect(fs.existsSync(d)).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'URL: learns the size first, names the file after the URL; resumes after a dropped connection',
    async () => {
      const d = dest('url');
      const run = await runDownloader({
        MODEL_SOURCE: 'url',
        MODEL_URL: `${files.url}/m/tiny.gguf`,
        MODEL_DEST: d,
        MODEL_STORAGE_SIZE: '10M',
      });
      expect(run.code).toBe(0);
      expect(fs.readFileSync(path.join(d, 'tiny.gguf')).equals(weights)).toBe(
        true,
      );
      expect(files.requests[0]).toEqual({
        path: '/m/tiny.gguf',
        range: 'bytes=0-0',
      });

      const cutting = await startFileServer(
        { '/m/tiny.gguf': weights },
        { cutAfterBytes: MB },
      );
      try {
        const d2 = dest('url-resume');
        const env = {
          MODEL_SOURCE: 'url',
          MODEL_URL: `${cutting.url}/m/tiny.gguf`,
          MODEL_DEST: d2,
          MODEL_STORAGE_SIZE: '10M',
        };
        expect((await runDownloader(env)).code).toBe(1);
        expect((await runDownloader(env)).code).toBe(0);
        expect(cutting.requests.at(-1)).toEqual({
          path: '/m/tiny.gguf',
          range: `bytes=${MB}-`,
        });
        expect(
          fs.readFileSync(path.join(d2, 'tiny.gguf')).equals(weights),
        ).toBe(true);
      } finally {
        await cutting.close();
      }
    },
    TIMEOUT,
  );

  it(
    'URL: a wrong size is an error (retryable), a 404 fails at once naming spec.source.url.url',
    async () => {
      const lying = await startFileServer(
        { '/m/x.bin': weights },
        { announceSize: MB },
      );
      try {
        const run = await runDownloader({
          MODEL_SOURCE: 'url',
          MODEL_URL: `${lying.url}/m/x.bin`,
          MODEL_DEST: dest('lying'),
          MODEL_STORAGE_SIZE: '10M',
        });
        expect(run.code).toBe(1);
        expect(run.error).toBe(
          `x.bin: the server announces ${MB} bytes but the listing said ${weights.length}`,
        );
      } finally {
        await lying.close();
      }
      const missing = await runDownloader({
        MODEL_SOURCE: 'url',
        MODEL_URL: `${files.url}/m/none.gguf`,
        MODEL_DEST: dest('404'),
        MODEL_STORAGE_SIZE: '10M',
      });
      expect(missing.code).toBe(2);
      expect(missing.error).toBe(
        `${files.url}/m/none.gguf answered 404 (not found): check spec.source.url.url`,
      );
    },
    TIMEOUT,
  );

  it(
    'S3 (s3rver behind a SigV4 check): every object under the prefix, SigV4-signed; a wrong key id or secret key names that Secret key and spec.credentialsSecret; an empty prefix names spec.source.s3.key',
    async () => {
      const d = dest('s3');
      const env = {
        MODEL_SOURCE: 's3',
        S3_BUCKET: 'models',
        S3_KEY: 'llama',
        S3_ENDPOINT: s3.endpoint,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: S3_KEYS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3_KEYS.secretAccessKey,
        MODEL_DEST: d,
        MODEL_STORAGE_SIZE: '1Gi',
      };
      const run = await runDownloader(env);
      expect(run).toMatchObject({ code: 0 });
      expect(
        fs
          .readFileSync(path.join(d, 'model-00001.safetensors'))
          .equals(shards[0]),
      ).toBe(true);
      expect(
        fs
          .readFileSync(path.join(d, 'sub', 'model-00002.safetensors'))
          .equals(shards[1]),
      ).toBe(true);
      expect(run.lines.at(-1)).toMatchObject({
        event: 'done',
        bytesTotal: shards[0].length + shards[1].length,
        files: 2,
      });

      // A wrong key id and a wrong secret key, refused by the SigV4 check in front of s3rver (s3rver alone accepts a wrong secret).
      const badKeyId = await runDownloader({
        ...env,
        MODEL_DEST: dest('s3-bad-key-id'),
        AWS_ACCESS_KEY_ID: 'WRONG',
      });
      expect(badKeyId.code).toBe(2);
      expect(badKeyId.error).toBe(
        'S3 answered 403 InvalidAccessKeyId for s3://models/llama/: the key id AWS_ACCESS_KEY_ID of the Secret named by spec.credentialsSecret is unknown to S3: check it (and spec.source.s3.endpoint)',
      );
      const badSecret = await runDownloader({
        ...env,
        MODEL_DEST: dest('s3-bad-secret'),
        AWS_SECRET_ACCESS_KEY: 'not-the-secret',
      });
      expect(badSecret.code).toBe(2);
      expect(badSecret.error).toBe(
        'S3 answered 403 SignatureDoesNotMatch for s3://models/llama/: the secret key AWS_SECRET_ACCESS_KEY of the Secret named by spec.credentialsSecret does not match its key id AWS_ACCESS_KEY_ID: put the secret of that key id in AWS_SECRET_ACCESS_KEY',
      );
      // Refused while planning: nothing written.
      expect(
        fs.existsSync(dest('s3-bad-secret'))
          ? fs.readdirSync(dest('s3-bad-secret'))
          : [],
      ).toEqual([]);
      const empty = await runDownloader({
        ...env,
        MODEL_DEST: dest('s3-empty'),
        S3_KEY: 'nothing-here/',
      });
      expect(empty.code).toBe(2);
      expect(empty.error).toContain('check spec.source.s3.key');
    },
    TIMEOUT,
  );

  it(
    'rejects missing settings with exit 2 naming the variable',
    async () => {
      const run = await runDownloader({
        MODEL_SOURCE: 'huggingface',
        MODEL_STORAGE_SIZE: '1Gi',
      });
      expect(run).toMatchObject({
        code: 2,
        error:
          "HF_REPO_ID is not set: the download Job sets it from the Model's spec",
      });
    },
    TIMEOUT,
  );
});

describe('storageSizeBytes', () => {
  it.each([
    ['20Gi', 20 * 1024 ** 3],
    ['20G', 20e9],
    ['512Mi', 512 * MB],
    ['1K', 1000],
    ['20GB', undefined],
  ])('%s', (size, bytes) => {
    expect(storageSizeBytes(size)).toBe(bytes);
  });
});
