import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ADMIN, repoRoot, signIn, useProductAndBrowser } from '../support/kit';

/**
 * Runs the resident simulator CLI (`npm run simulate`) against the product's gateway, filing
 * complaints for a moment, and answers how many it filed (from its closing "done:" line).
 */
async function simulateComplaints(url: string): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repoRoot, 'api/src/simulator/cli.ts'),
      '--url',
      `${url}/api`,
      '--actions',
      'complain',
      '--rate',
      '2',
      '--duration',
      '1',
      '--residents',
      '2',
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(0);
  const done = /done: failed (\d+), complain (\d+)/.exec(out);
  expect(done, out).not.toBeNull();
  expect(Number(done![1])).toBe(0);
  return Number(done![2]);
}

const untreated = async (page: Page) => Number(await page.getByTestId('count-complaintsUntreated').textContent());

describe('console shell: live counters', () => {
  const run = useProductAndBrowser();
  let context: BrowserContext;

  it('when the resident simulator files complaints, then the untreated count rises in two open tabs without reload', async () => {
    context = await run.context();
    const first = await context.newPage();
    await signIn(first, run.product.url, ADMIN);
    const second = await context.newPage();
    await second.goto(run.product.url + '/dashboard');
    await second.getByTestId('dashboard').waitFor();
    // Both tabs are connected to the gateway and hold the same snapshot before the event.
    for (const p of [first, second])
      await p.locator('[data-testid=dashboard][data-live=synced]').waitFor({ timeout: 15_000 });
    await expect
      .poll(async () => (await untreated(first)) === (await untreated(second)), { timeout: 15_000 })
      .toBe(true);
    const before = await untreated(first);
    const navigations: string[] = [];
    for (const p of [first, second]) p.on('framenavigated', (f) => f === p.mainFrame() && navigations.push(f.url()));

    const filed = await simulateComplaints(run.product.url);
    expect(filed).toBeGreaterThan(0);

    await expect.poll(() => untreated(first), { timeout: 15_000 }).toBe(before + filed);
    await expect.poll(() => untreated(second), { timeout: 15_000 }).toBe(before + filed);
    expect(navigations).toEqual([]);
  });
});
