/**
 * The dashboard benchmark: renders the real dashboard in headless Chromium
 * with 5,000 mixed rows (3,000 deployments, 1,000 models, 1,000 stacks) across
 * 3 clusters on its "All" tab (mocked API), against a baseline of 50 rows
 * measured in the same run, and prints the plugin's bundle
 * size (what it adds to an app that already has React, MUI and Backstage).
 *
 *   yarn bench            (in plugins/runway)
 */
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const root = resolve(__dirname, '..');
/** Shared with the app (it has them already), so not part of the plugin's cost. */
const SHARED = [
  'react',
  'react-dom',
  'react/*',
  'react-dom/*',
  'react-router',
  'react-router-dom',
  '@backstage/*',
  '@material-ui/*',
  '@mui/*',
  '@emotion/*',
];

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The package a bundled file comes from. */
function ownerOf(file: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (match) return match[1];
  if (file.includes('runway-common'))
    return '@runway-portal/plugin-runway-common';
  return '@runway-portal/plugin-runway (own code)';
}

async function bundleSize() {
  const result = await build({
    entryPoints: [join(root, 'src/alpha.tsx')],
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    external: SHARED,
    metafile: true,
    logLevel: 'error',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const code = result.outputFiles[0].contents;
  const byPackage = new Map<string, number>();
  for (const [file, info] of Object.entries(
    Object.values(result.metafile.outputs)[0].inputs,
  )) {
    byPackage.set(
      ownerOf(file),
      (byPackage.get(ownerOf(file)) ?? 0) + info.bytesInOutput,
    );
  }
  // With code splitting (as the app's bundler does): what loads with the app vs. when a page opens.
  const split = await build({
    entryPoints: [join(root, 'src/alpha.tsx')],
    bundle: true,
    minify: true,
    write: false,
    splitting: true,
    outdir: join(tmpdir(), 'runway-bench-split'),
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    external: SHARED,
    logLevel: 'error',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const entry = split.outputFiles.find(f =>
    f.path.endsWith('alpha.js'),
  )!.contents;
  return {
    raw: code.byteLength,
    gzip: gzipSync(code).byteLength,
    entryRaw: entry.byteLength,
    entryGzip: gzipSync(entry).byteLength,
    byPackage: [...byPackage].sort((a, b) => b[1] - a[1]),
  };
}

async function renderTimes() {
  const dir = mkdtempSync(join(tmpdir(), 'runway-bench-'));
  try {
    await build({
      entryPoints: [join(__dirname, 'dashboard.entry.tsx')],
      bundle: true,
      minify: true,
      outfile: join(dir, 'bench.js'),
      format: 'iife',
      platform: 'browser',
      jsx: 'automatic',
      logLevel: 'error',
      define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    });
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html><body><script src="bench.js"></script></body></html>',
    );
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_FLAGS,
    });
    try {
      const page = await browser.newPage({
        viewport: { width: 1400, height: 1000 },
      });
      await page.goto(`file://${join(dir, 'index.html')}`);
      await page.waitForFunction(
        () => (window as any).__benchResults || (window as any).__benchError,
        undefined,
        { timeout: 300_000 },
      );
      const error = await page.evaluate(() => (window as any).__benchError);
      if (error) throw new Error(`benchmark page failed: ${error}`);
      return (await page.evaluate(
        () => (window as any).__benchResults,
      )) as Array<{
        deployments: number;
        renderMs: number;
        filterMs: number;
        domRows: number;
      }>;
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const size = await bundleSize();
  console.log(
    'Bundle (src/alpha.tsx, minified; React, MUI, Backstage shared with the app):',
  );
  console.log(`  ${kib(size.raw)} raw, ${kib(size.gzip)} gzip`);
  for (const [owner, bytes] of size.byPackage.slice(0, 8))
    console.log(`    ${owner.padEnd(44)} ${kib(bytes)}`);
  console.log(
    `  loaded with the app (entry chunk, pages lazy-loaded): ${kib(
      size.entryRaw,
    )} raw, ${kib(size.entryGzip)} gzip`,
  );

  const results = await renderTimes();
  const pick = (n: number) => results.filter(r => r.deployments === n);
  const base = pick(50);
  const big = pick(5000);
  const row = (label: string, rs: typeof results) =>
    `  ${label.padEnd(34)} render ${median(rs.map(r => r.renderMs))
      .toFixed(1)
      .padStart(7)} ms   filter ${median(rs.map(r => r.filterMs))
      .toFixed(1)
      .padStart(6)} ms   rows in DOM ${rs[0].domRows}`;
  console.log(
    `Dashboard in headless Chromium (median of ${big.length} runs, mocked API, 3 clusters):`,
  );
  console.log(row('baseline: 50 mixed rows', base));
  console.log(row('5,000 mixed rows', big));
  console.log(
    `  ratio 5,000 / 50: render ${(
      median(big.map(r => r.renderMs)) / median(base.map(r => r.renderMs))
    ).toFixed(2)}x, filter ${(
      median(big.map(r => r.filterMs)) / median(base.map(r => r.filterMs))
    ).toFixed(2)}x`,
  );
}

main().catch(err => {
  console.error(err);
  process.exitCode = 1;
});
