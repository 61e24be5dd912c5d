/**
 * Every browser suite on ONE local system (clusters `dev` and `staging`, the
 * core and provider controllers, the simulators, the model and stack
 * operators, the hub stand-in, Backstage): starting a system with Backstage
 * is most of a suite's time, so the suites share it (CI's budget). Each
 * suite opens its own Chromium and keeps its own screenshot folder, objects
 * and test names (src/suites/*.ts).
 *
 * Order matters only for the portal suite's first screenshot (an empty
 * dashboard): it runs first. The suites that stop `staging`'s control plane
 * (portal, stale) start it again before they end.
 */
import {
  freePort,
  startSystem,
  type RunningSystem,
} from '@runway-portal/e2e-system';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeDetail } from './suites/detail';
import {
  describeModelsStacks,
  HUB_BYTES_PER_SECOND,
} from './suites/modelsStacks';
import { describePortal } from './suites/portal';
import { describeStale } from './suites/stale';

const START_TIMEOUT_MS = 30 * 60_000;

const stateDir = mkdtempSync(join(tmpdir(), 'runway-browser-system-'));
let system: RunningSystem | undefined;
const getSystem = (): RunningSystem => {
  if (!system) throw new Error("the browser tests' local system did not start");
  return system;
};

beforeAll(async () => {
  const started = Date.now();
  system = await startSystem({
    clusters: ['dev', 'staging'],
    backstage: true,
    // The simulators' pace every suite was written with (the detail suite's once was 500 ms).
    stepDelayMs: 1000,
    // The models suite watches a download in progress: slow enough to see it.
    hubBytesPerSecond: HUB_BYTES_PER_SECOND,
    ports: { app: await freePort(), backend: await freePort() },
    stateDir,
    honourLocalConfig: false,
    log: () => {},
  });
  process.stdout.write(
    `browser tests' local system started in ${Date.now() - started} ms\n`,
  );
}, START_TIMEOUT_MS);

afterAll(async () => {
  const stopping = Date.now();
  await system?.stop();
  rmSync(stateDir, { recursive: true, force: true });
  process.stdout.write(
    `browser tests' local system stopped in ${Date.now() - stopping} ms\n`,
  );
}, 120_000);

describePortal(getSystem);
describeStale(getSystem);
describeDetail(getSystem);
describeModelsStacks(getSystem);
