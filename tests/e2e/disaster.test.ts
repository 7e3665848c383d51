// Disaster warnings and SOS end to end (issue 21), in real Chromium against the product as
// `npm start` runs it: a resident's SOS rings on two staff tabs (the product's sound, a toast and
// the alarm dialog at 15vh with person, house, position and time), one acknowledges and the other
// sees it acknowledged, closing it with a note clears both; a warning released from the form is
// answered by a resident and followed live — in English and in Chinese at 390 px.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, apiCall, apiToken, repoRoot, signedInPage, useProductAndBrowser } from '../support/kit';

const en = JSON.parse(readFileSync(join(repoRoot, 'locales', 'en.json'), 'utf8'));
const zhCN = JSON.parse(readFileSync(join(repoRoot, 'locales', 'zh-CN.json'), 'utf8'));
const zhTW = JSON.parse(readFileSync(join(repoRoot, 'locales', 'zh-TW.json'), 'utf8'));
const RESIDENT = { username: 'resident4', password: 'resident123' };

/** Records every sound a page starts (the console plays the alarm through HTMLMediaElement.play). */
async function recordSounds(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { sounds: string[] };
    w.sounds = [];
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      w.sounds.push(this.src);
      return play.call(this);
    };
  });
}
const sounds = (page: Page) => page.evaluate(() => (window as unknown as { sounds: string[] }).sounds);

async function resident(url: string) {
  const token = await apiToken(url, RESIDENT);
  const [house] = await apiCall<{ houseType: number; houseId: number }[]>(url, '/app/house/list', token);
  return { token, house };
}

describe('disaster: SOS on every console, warnings followed live', () => {
  const run = useProductAndBrowser({ SOS_REANNOUNCE_MS: '600000' });

  it('when a resident calls SOS, then two staff tabs ring, toast and show the alarm dialog at 15vh; one acknowledges, the other sees it; closed with a note it leaves both', async () => {
    const url = run.product.url;
    const wide = await signedInPage(run, ADMIN, { path: '/login?redirect=%2Fdisaster-warning%2Falert-detail' });
    const narrow = await signedInPage(run, ADMIN, { language: 'zh-CN', width: 390 });
    for (const page of [wide, narrow]) {
      await recordSounds(page);
      await page.reload();
      await page.getByTestId('sidebar').waitFor({ timeout: 30_000 });
      await page.getByTestId('alarm-bell').waitFor();
    }
    const sound = await fetch(`${url}/sounds/sos-alarm.wav`);
    expect(sound.status).toBe(200);
    expect(sound.headers.get('content-type')).toMatch(/audio/);

    const r = await resident(url);
    const position = 'Stairwell B, 3rd floor';
    const { sosHelpId } = await apiCall<{ sosHelpId: number }>(url, '/app/sos/help', r.token, {
      ...r.house,
      position,
    });

    for (const [page, texts] of [
      [wide, en],
      [narrow, zhCN],
    ] as const) {
      const dialog = page.getByTestId('sos-dialog');
      await dialog.getByTestId('sos-position').getByText(position).waitFor({ timeout: 15_000 });
      expect(await dialog.getByText(texts.disaster.sos.title).count()).toBe(1);
      expect(await dialog.getByTestId('sos-person').textContent()).toMatch(/\S/);
      expect(await dialog.getByTestId('sos-house').textContent()).toMatch(/\S/);
      expect(await dialog.getByTestId('sos-time').textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      expect(await dialog.getByTestId('sos-state').getAttribute('data-state')).toBe('open');
      await page.getByTestId('toast-warning').getByText(texts.messages.toasts.sos).first().waitFor();
      await expect.poll(() => sounds(page)).toContainEqual(expect.stringContaining('/sounds/sos-alarm.wav'));
    }
    // SPEC §2: the alarm dialog is placed at 15vh (900 px high: 135 px).
    const box = await wide.locator('.ui.modal', { has: wide.getByTestId('sos-position') }).boundingBox();
    expect(Math.round(box!.y)).toBe(135);
    // The alarm page lists it, unacknowledged first.
    expect(await wide.getByTestId('sos-row').first().getAttribute('data-state')).toBe('open');

    // Closed unanswered, the alarm stays in the bell; View opens the dialog again and reads nothing.
    const bellCount = () => narrow.getByTestId('alarm-bell-count').textContent();
    const unread = await bellCount();
    await narrow.keyboard.press('Escape');
    await narrow.getByTestId('sos-dialog').waitFor({ state: 'detached' });
    await narrow.getByTestId('alarm-bell').click();
    await narrow.getByTestId('alarm-bell-panel').getByTestId('notification-view').first().click();
    await narrow.getByTestId('sos-dialog').getByTestId('sos-position').getByText(position).waitFor();
    expect(await bellCount()).toBe(unread);

    await wide.getByTestId('sos-acknowledge').click();
    await narrow
      .getByTestId('sos-dialog')
      .locator('[data-testid=sos-state][data-state=acknowledged]')
      .waitFor({ timeout: 15_000 });
    expect(await narrow.getByTestId('sos-acknowledged-by').textContent()).toContain('·');
    expect(await narrow.getByTestId('sos-acknowledge').count()).toBe(0);

    await wide.locator('#sos-close-note').fill('Guard found her; she is fine');
    await wide.getByTestId('sos-close').click();
    await narrow.getByTestId('sos-dialog').waitFor({ state: 'detached', timeout: 15_000 });
    const token = await apiToken(url, ADMIN);
    const closed = await apiCall<{ state: string; handledNote: string }>(url, `/disaster/sos/${sosHelpId}`, token);
    expect(closed).toMatchObject({ state: 'closed', handledNote: 'Guard found her; she is fine' });
  });

  it('when staff release a warning from the form and a resident asks for help, then the counts and the help list move live and the request is marked handled; revoking asks first', async () => {
    const url = run.product.url;
    const page = await signedInPage(run, ADMIN, {
      language: 'zh-TW',
      width: 390,
      path: '/login?redirect=%2Fdisaster-warning%2Fadd-disaster-warning',
    });
    await page.getByTestId('warn-type').selectOption('1');
    await page.locator('#warn-content').fill('Fire drill at 3 pm: meet at the garden.');
    await page.getByTestId('warn-submit').click();
    const detail = page.getByTestId('warn-detail');
    await detail.getByTestId('warn-content').getByText('Fire drill at 3 pm').waitFor();
    const warnId = Number(new URL(page.url()).searchParams.get('open'));
    expect(warnId).toBeGreaterThan(0);

    const r = await resident(url);
    await apiCall(url, '/app/disaster/reply', r.token, { disasterWarnId: warnId, reply: 5, note: 'Door jammed' });
    await detail.getByTestId('reply-count-5').getByText('1').waitFor({ timeout: 15_000 });
    await detail.getByTestId('warn-tab-help').click();
    const help = detail.getByTestId('warn-people-help');
    await help.getByText('Door jammed').waitFor();
    expect(await help.getByTestId('warn-person').count()).toBe(1);
    await help.getByTestId('help-handle').click();
    await help.getByTestId('help-note').locator('input').fill('Locksmith sent');
    await help.getByTestId('help-save').click();
    await help.getByTestId('help-handled').getByText('Locksmith sent').waitFor();

    await detail.getByTestId('revoke-warning').click();
    await page.getByText(zhTW.disaster.warn.revokeConfirm).waitFor();
    await page.getByTestId('confirm-ok').click();
    await detail.getByText(zhTW.disaster.warn.revoked).first().waitFor();
    const answer = await fetch(`${url}/api/app/disaster/reply`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${r.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ disasterWarnId: warnId, reply: 1 }),
    });
    expect(answer.status).toBe(409);
  });
});
