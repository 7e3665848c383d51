// What a phone on a slow network gets from a cold start (issue 17), run by `npm run bench console-load`.
// Builds the console, starts the product as `npm start` does (its own ports, a fresh DATA_DIR),
// and runs Lighthouse (mobile, simulated slow 4G and a 4× slower CPU, the performance category)
// on /login and, signed in as the demo admin, on /dashboard. Each run starts with an empty
// browser cache, so the bytes are what a first visit transfers. Lighthouse drives Debian's
// Chromium (CHROME_PATH or CHROMIUM_PATH, /usr/bin/chromium), never a downloaded browser.
// Budgets: /login ≤ 250 KB transferred, performance ≥ 90 on both. Prints exactly one JSON line.
//   BENCH_RUNS (3): Lighthouse runs per page, the median score is reported.
//   BENCH_SKIP_BUILD=1: use client/dist as it is.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { startProduct } from '../../tests/support/product';

const root = resolve(import.meta.dirname, '../..');
const chromePath = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runs = Number(process.env.BENCH_RUNS ?? 3);
const LOGIN_BUDGET_KB = 250;
const SCORE_BUDGET = 90;

if (process.env.BENCH_SKIP_BUILD !== '1') {
  const build = spawnSync('npm', ['run', 'build', '-w', 'client'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('client build failed');
}

// The product as `npm start` runs it (its own ports, a fresh DATA_DIR).
const product = await startProduct({ REDIS_URL: '', METRICS_PORT: '0', API_METRICS_PORT: '0', START_QUIET: '1' });
const base = product.url.replace('127.0.0.1', 'localhost');

async function signIn(username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('console:console-secret').toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`sign-in failed: ${JSON.stringify(body)}`);
  return body.access_token;
}

const browser = await puppeteer.launch({
  executablePath: chromePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

interface PageFigures {
  score: number;
  transferKB: number;
  requests: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  scores: number[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(path: string, token?: string): Promise<PageFigures> {
  const results: { score: number; bytes: number; requests: number; fcp: number; lcp: number; tbt: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const page = await browser.newPage();
    // Lighthouse clears the HTTP cache and origin storage before loading, but keeps cookies:
    // the console's session lives in its cookie.
    if (token) await browser.setCookie({ name: 'Admin-Token', value: token, domain: 'localhost', path: '/' });
    const result = await lighthouse(
      `${base}${path}`,
      { output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
      undefined,
      page,
    );
    await page.close();
    const lhr = result!.lhr;
    if (lhr.runtimeError) throw new Error(`${path}: ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    // BENCH_DETAILS=1: every request of the run on stderr (what to trim next).
    if (process.env.BENCH_DETAILS === '1') {
      const items = (lhr.audits['network-requests']?.details as { items?: Record<string, unknown>[] } | undefined)
        ?.items;
      for (const item of items ?? []) console.error(`${path}\t${item.transferSize}\t${item.resourceSize}\t${item.url}`);
      console.error(`${path}\tLCP\t${JSON.stringify(lhr.audits['largest-contentful-paint-element']?.details ?? {})}`);
      for (const id of [
        'first-contentful-paint',
        'largest-contentful-paint',
        'speed-index',
        'total-blocking-time',
        'cumulative-layout-shift',
      ])
        console.error(`${path}\t${id}\t${lhr.audits[id]?.numericValue}\t${lhr.audits[id]?.score}`);
    }
    // Bytes over the network: Lighthouse's total-byte-weight also counts data: URLs (fonts inlined
    // in the CSS), which arrive inside the CSS and are not transferred again.
    const items =
      (lhr.audits['network-requests']?.details as { items?: { url: string; transferSize?: number }[] } | undefined)
        ?.items ?? [];
    const network = items.filter((item) => /^https?:/.test(item.url));
    const requests = network.length;
    const bytes = network.reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
    results.push({
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      bytes,
      requests,
      fcp: audit('first-contentful-paint'),
      lcp: audit('largest-contentful-paint'),
      tbt: audit('total-blocking-time'),
    });
  }
  const mid = results.find((r) => r.score === median(results.map((x) => x.score)))!;
  return {
    score: mid.score,
    transferKB: Math.round(median(results.map((r) => r.bytes)) / 102.4) / 10,
    requests: mid.requests,
    fcpMs: Math.round(mid.fcp),
    lcpMs: Math.round(mid.lcp),
    tbtMs: Math.round(mid.tbt),
    scores: results.map((r) => r.score),
  };
}

try {
  const login = await measure('/login');
  const dashboard = await measure('/dashboard', await signIn('admin', 'admin123'));
  console.log(
    JSON.stringify({
      bench: 'console-load',
      lighthouse: 'mobile, simulated throttling',
      runs,
      login,
      dashboard,
      budgets: { loginTransferKB: LOGIN_BUDGET_KB, performanceScore: SCORE_BUDGET },
      withinBudget:
        login.transferKB <= LOGIN_BUDGET_KB && login.score >= SCORE_BUDGET && dashboard.score >= SCORE_BUDGET,
    }),
  );
} finally {
  await browser.close();
  await product.stop();
}
