import { describe, expect, it } from 'vitest';
import { useProductAndBrowser } from '../support/kit';

describe('the product started as `npm start` does', () => {
  const run = useProductAndBrowser();

  it('when started, then it prints the URL and the demo accounts and /health answers 200', async () => {
    expect(run.product.output()).toContain('is running at http://localhost:');
    expect(run.product.output()).toContain('admin / admin123');
    const health = await fetch(`${run.product.url}/health`);
    expect(health.status).toBe(200);
  });

  it('when the start page is opened in Chromium, then the console renders its title', async () => {
    const page = await run.browser.newPage();
    await page.goto(run.product.url);
    await expect.poll(() => page.title()).toContain('Property Management System');
    await page.close();
  });
});
