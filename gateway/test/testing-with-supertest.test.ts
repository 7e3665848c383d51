// README "Testing with supertest": this file is that section's example, word for word after this
// comment (gateway/test/readme-example.test.ts compares them), so the example always runs.

import request from 'supertest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestProduct, type TestProduct } from '@pm/gateway/testing';

let product: TestProduct;
beforeAll(async () => {
  product = await startTestProduct(); // the api on an embedded database with the demo estate, and the gateway
}, 120_000);
afterAll(() => product?.stop());

it('lists the complaints through the gateway', async () => {
  const admin = await product.signIn('admin');
  const res = await request(product.url)
    .post('/api/complain/query/list')
    .set(admin.headers)
    .send({ page: 1, limit: 10 })
    .expect(200);
  expect(res.body.code).toBe(200);
  expect(res.body.data.list.length).toBeGreaterThan(0);
});

it('hears a new complaint live on socket.io', async () => {
  const admin = await product.signIn('admin');
  const tab = await product.openTab(admin); // a console tab, subscribed to every topic admin may have
  const resident = await product.signIn('resident1');
  const houses = await request(product.url).get('/api/app/house/list').set(resident.headers).expect(200);
  const { houseType, houseId } = houses.body.data[0];
  const filed = await request(product.url)
    .post('/api/app/complain/save')
    .set(resident.headers)
    .send({ name: 'Noise at night', note: 'Since Monday', houseType, houseId })
    .expect(200);
  const event = await tab.next('workorders', (e) => e.dataId === filed.body.data.complainId);
  expect(event.messageType).toBe(50); // a new complaint (SPEC §9)
});
