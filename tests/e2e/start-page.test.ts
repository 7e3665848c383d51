import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startProduct, type Product } from '../support/kit';

describe('the product started as `npm start` does', () => {
  let product: Product;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('when started, then it prints the URL and the demo accounts and /health answers 200', async () => {
    expect(product.output()).toContain('is running at http://localhost:');
    expect(product.output()).toContain('admin / admin123');
    const health = await fetch(`${product.url}/health`);
    expect(health.status).toBe(200);
  });

  it('when the start page is opened in Chromium, then the console renders its title', async () => {
    const page = await browser.newPage();
    await page.goto(product.url);
    await expect.poll(() => page.title()).toContain('Property Management System');
    await page.close();
  });
});
