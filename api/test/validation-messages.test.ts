// Bad input is answered in the person's language, field names and rules included (issue 16):
// "請輸入處理說明", "页码不能小于 1" — never zod's English ("Too small: expected number to be >=1")
// or a wire name ("dealNote") inside a Chinese sentence. Every route with a body, fed wrong
// values in Chinese, answers a message without English words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRoute } from '../src/http/define-route';
import { allModules } from '../src/server';
import { signIn, startTestApi, type Session, type TestApi } from './kit';

const routes: ApiRoute[] = allModules(async () => true).flatMap((m) => m.routes);
const fill = (path: string, value: string | number) => path.replace(/[:*]\w+/g, String(value));
/** Words allowed in a Chinese message: names of things, not English sentences. */
const ALLOWED = /^(ADMIN|JSON|SOS|API|MB|yyyy|MM|dd|HH|mm)$/;
const englishWords = (msg: string) => (msg.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !ALLOWED.test(w));

describe('validation messages', () => {
  let api: TestApi;
  let admin: Session;

  beforeAll(async () => {
    api = await startTestApi('pglite');
    admin = await signIn(api, 'admin');
  });
  afterAll(async () => api?.close());

  const call = (lang: string, path: string, body: object) => admin.post(path, body).set('lang', lang);

  it('when a required field is missing, then the message names it in the language of the request', async () => {
    const tw = await call('zh-TW', '/complain/updateDeal', { complainId: 1 });
    expect(tw.status).toBe(400);
    expect(tw.body.msg).toBe('請輸入處理說明');
    const cn = await call('zh-CN', '/complain/updateDeal', { complainId: 1 });
    expect(cn.body.msg).toBe('请输入处理说明');
    const en = await call('en', '/complain/updateDeal', { complainId: 1 });
    expect(en.body.msg).toBe('Deal note is required');
  });

  it('when a value breaks a rule, then the rule is said with its bound and the field name', async () => {
    expect((await call('zh-CN', '/complain/query/list', { page: 0 })).body.msg).toBe('页码不能小于 1');
    expect((await call('zh-TW', '/complain/query/list', { limit: 5000 })).body.msg).toBe('每頁筆數不能大於 1000');
    expect((await call('zh-TW', '/complain/query/list', { limit: 'ten' })).body.msg).toBe('每頁筆數必須是整數');
    expect((await call('en', '/complain/query/list', { page: 0 })).body.msg).toBe('Page must be at least 1');
    const long = await call('zh-TW', '/complain/updateDeal', { complainId: 1, dealNote: 'x'.repeat(2001) });
    expect(long.body.msg).toBe('處理說明不能超過 2000 個字元');
    const type = await call('zh-CN', '/complain/updateDeal', { complainId: 1, dealNote: 42 });
    expect(type.body.msg).toBe('处理说明必须是文本');
  });

  it('when every route with a body gets wrong values in Chinese, then no message contains English', async () => {
    const found: string[] = [];
    let answered400 = 0;
    for (const r of routes) {
      if (r.method !== 'post' || !r.body || r.bodyType === 'form' || r.bodyType === 'multipart') continue;
      const shape = (r.body as { shape?: Record<string, unknown> }).shape ?? {};
      const wrong = Object.fromEntries(Object.keys(shape).map((k) => [k, { nested: true }]));
      for (const [lang, body] of [
        ['zh-TW', wrong],
        ['zh-CN', {}],
      ] as const) {
        const res = await call(lang, fill(r.path, 1), body);
        if (res.status !== 400) continue;
        answered400++;
        const words = englishWords(String(res.body.msg));
        if (words.length) found.push(`${r.path} (${lang}): ${res.body.msg}`);
      }
    }
    expect(answered400).toBeGreaterThan(30);
    expect(found).toEqual([]);
  });
});
