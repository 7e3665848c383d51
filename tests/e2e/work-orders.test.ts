// Complaints end to end (issue 7): a resident files through the resident API, staff see it
// arrive live, reply, deal with and complete it with the confirmations — in English and in
// Simplified Chinese — and a role without complain:update is offered no deal button.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, apiCall, apiToken, repoRoot, signIn, STAFF, useProductAndBrowser } from '../support/kit';

const RESIDENT = { username: 'resident2', password: 'resident123' };

const zhCN = JSON.parse(readFileSync(join(repoRoot, 'locales', 'zh-CN.json'), 'utf8'));

/** Files a complaint as the resident and answers its code. */
async function fileComplaint(url: string, name: string): Promise<string> {
  const token = await apiToken(url, RESIDENT);
  const [house] = await apiCall<{ houseType: number; houseId: number }[]>(url, '/app/house/list', token);
  const { houseType, houseId } = house;
  const body = { name, note: 'Reported from the app', houseType, houseId };
  return (await apiCall<{ complainCode: string }>(url, '/app/complain/save', token, body)).complainCode;
}

const count = async (page: Page, status: number) =>
  Number(await page.getByTestId(`status-count-${status}`).textContent());

async function openComplaints(page: Page, url: string, user: { username: string; password: string }) {
  await signIn(page, url, user, '/login?redirect=%2Fcomplaints-suggestions%2Findex');
  await page.getByTestId('work-page-complaint').waitFor();
  await page.getByTestId('work-table').waitFor();
}

describe('complaints: resident → staff, live', () => {
  const run = useProductAndBrowser();

  it('when a resident files a complaint, then it appears in the open list live and staff reply, deal with and complete it', async () => {
    const page = await (await run.context()).newPage();
    await openComplaints(page, run.product.url, ADMIN);
    await page.getByTestId('status-tab-1').click();
    await expect.poll(() => count(page, 1), { timeout: 15_000 }).toBeGreaterThan(0);
    const before = await count(page, 1);

    const code = await fileComplaint(run.product.url, 'Corridor light is broken');
    const row = page.getByTestId(`work-row-${code}`);
    await row.waitFor({ timeout: 15_000 });
    await expect.poll(() => count(page, 1)).toBe(before + 1);
    // The message bell lists the new-complaint message (type 50 is listed, not counted: SPEC §9).
    await page.getByTestId('message-bell').click();
    await page
      .getByTestId('notification-panel')
      .getByText('Corridor light is broken')
      .first()
      .waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 400);

    await row.getByTestId('open-detail').click();
    const dialog = page.getByTestId('work-detail');
    await dialog.getByTestId('work-info').waitFor();
    expect(await dialog.textContent()).toContain('Corridor light is broken');

    // Reply: required on blur, then sent and listed.
    await dialog.getByTestId('tab-reply').click();
    await dialog.locator('textarea[name=replyContent]').focus();
    await dialog.locator('textarea[name=replyContent]').blur();
    await dialog.getByText('Please enter the reply').waitFor();
    await dialog.locator('textarea[name=replyContent]').fill('An electrician is on the way');
    await dialog.getByTestId('reply-submit').click();
    await dialog.getByTestId('reply-item').waitFor();
    expect(await dialog.getByTestId('reply-item').textContent()).toContain('An electrician is on the way');

    // Deal with: note required, then a confirmation that names the new status.
    await dialog.getByTestId('tab-info').click();
    await dialog.getByTestId('deal-button').click();
    await dialog.getByTestId('deal-submit').click();
    await dialog.getByText('Please enter how it was dealt with').waitFor();
    await dialog.locator('textarea[name=dealNote]').fill('Bulb ordered');
    await dialog.getByTestId('deal-submit').click();
    await page.getByTestId('confirm-dialog').waitFor();
    expect(await page.getByTestId('confirm-dialog').textContent()).toContain('The status will change to processing');
    await page.getByTestId('confirm-ok').click();
    await dialog.getByTestId('deal-info').waitFor();
    expect(await dialog.getByTestId('status-label').first().textContent()).toBe('Processing');

    await dialog.getByTestId('complete-button').click();
    await dialog.locator('textarea[name=completeNote]').fill('Bulb replaced');
    await dialog.getByTestId('complete-submit').click();
    expect(await page.getByTestId('confirm-dialog').textContent()).toContain('The status will change to completed');
    await page.getByTestId('confirm-ok').click();
    await dialog.getByTestId('complete-info').waitFor();
    expect(await dialog.getByTestId('complete-info').textContent()).toContain('Bulb replaced');
    await expect.poll(() => count(page, 1)).toBe(before);
  });

  it('when staff work in Simplified Chinese, then the screen, confirmations and statuses are in Chinese', async () => {
    const page = await (await run.context('zh-CN')).newPage();
    await openComplaints(page, run.product.url, ADMIN);
    const code = await fileComplaint(run.product.url, '垃圾没有清理');
    const row = page.getByTestId(`work-row-${code}`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getByTestId('status-label').textContent()).toBe(zhCN.workOrders.status.s1);
    await row.getByTestId('open-detail').click();
    const dialog = page.getByTestId('work-detail');
    await dialog.getByTestId('deal-button').click();
    await dialog.locator('textarea[name=dealNote]').fill('已安排清洁工');
    await dialog.getByTestId('deal-submit').click();
    expect(await page.getByTestId('confirm-dialog').textContent()).toContain(zhCN.workOrders.confirmDeal);
    await page.getByTestId('confirm-ok').click();
    await dialog.getByTestId('deal-info').waitFor();
    expect(await dialog.getByTestId('status-label').first().textContent()).toBe(zhCN.workOrders.status.s2);
    expect(await dialog.textContent()).toContain(zhCN.workOrders.dealInfo);
  });

  it('when a staff role lacks complain:update, then the detail offers no deal button but replies still work', async () => {
    const page = await (await run.context()).newPage();
    const code = await fileComplaint(run.product.url, 'Noise at night');
    await openComplaints(page, run.product.url, STAFF);
    const row = page.getByTestId(`work-row-${code}`);
    await row.waitFor({ timeout: 15_000 });
    await row.getByTestId('open-detail').click();
    const dialog = page.getByTestId('work-detail');
    await dialog.getByTestId('work-info').waitFor();
    expect(await dialog.getByTestId('deal-button').count()).toBe(0);
    expect(await dialog.getByTestId('tab-reply').count()).toBe(1);
  });
});
