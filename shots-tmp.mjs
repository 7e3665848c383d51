import { chromium } from '/work/wt/im/node_modules/playwright-core/index.mjs';
const base = 'http://127.0.0.1:18931';
const lang = process.argv[2] ?? 'en';
const width = Number(process.argv[3] ?? 1440);
const only = process.argv[4];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 }, locale: lang });
await ctx.addCookies([{ name: 'language', value: lang, url: base }]);
const page = await ctx.newPage();
page.on('pageerror', (e) => console.log('pageerror', e.message));
page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()));
await page.goto(base + '/login');
await page.locator('input[name=account]').fill('admin');
await page.locator('input[name=password]').fill('admin123');
await page.getByTestId('login-submit').click();
await page.getByTestId('sidebar').waitFor({ timeout: 30000 });
const shot = async (name) => { await page.waitForTimeout(800); await page.screenshot({ path: `/work/shots/im/${name}-${lang}-${width}.png` }); };
if (!only || only === 'chat') {
  await page.goto(base + '/instant-messaging/chat');
  await page.getByTestId('chat-list-row').first().waitFor();
  await shot('chat-list');
  await page.getByTestId('chat-list-row').first().click();
  await page.getByTestId('chat-conversation').waitFor();
  await shot('chat-open');
}
if (!only || only === 'book') {
  await page.goto(base + '/instant-messaging/address-book');
  await page.getByTestId('book-entry').first().waitFor();
  await shot('book-staff');
  await page.getByTestId('book-tab-residents').click();
  await page.waitForTimeout(800);
  await shot('book-residents');
}
if (!only || only === 'settings') {
  await page.goto(base + '/instant-messaging/address-book-settings');
  await page.getByTestId('book-settings').waitFor();
  await shot('book-settings');
}
await browser.close();
