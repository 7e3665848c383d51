import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/open-database';
import * as s from '../db/schema';
import { queryRows } from '../db/sql';
import { demoImagePath as img } from './demo-images';

/**
 * The demo's basic set-up and ads (issue 33), in the estates of the accounts named: the first
 * estate gets a logo; its settings are otherwise the environment's defaults, so the screen shows
 * both kinds. Ads in every state of their period, as days of the estate: shown now (always, or in
 * a period around today), not begun, ended and switched off, with web and app-screen links.
 */
export async function seedSetup(tx: DbOrTx, adminUsernames: string[]): Promise<void> {
  for (const [i, username] of adminUsernames.entries()) {
    const [admin] = await tx
      .select({ companyId: s.account.companyId, housingEstateId: s.account.housingEstateId })
      .from(s.account)
      .where(eq(s.account.username, username));
    if (!admin) continue;
    const t = { companyId: admin.companyId, housingEstateId: admin.housingEstateId };
    // Days around the estate's today (its own time zone).
    const [{ today }] = await queryRows<{ today: string }>(
      tx,
      sql`select (now() at time zone time_zone)::date::text as today from housing_estate where id = ${t.housingEstateId}`,
    );
    const day = (offset: number) => {
      const d = new Date(`${today}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() + offset);
      return d.toISOString().slice(0, 10);
    };
    if (i === 0)
      await tx
        .update(s.housingEstate)
        .set({ logo: img('estate-logo') })
        .where(eq(s.housingEstate.id, t.housingEstateId));
    const ad = (k: number) => ({ ...t, image: img(`ad-${k}`), detailImage: img(`ad-${k}-detail`) });
    await tx.insert(s.ad).values(
      i === 0
        ? [
            { ...ad(1), title: 'Spring cleaning service', link: 'https://example.com/cleaning', sort: 1 },
            {
              ...ad(2),
              title: 'Moving help this season',
              link: 'https://example.com/moving',
              sort: 2,
              startDate: day(-10),
              endDate: day(50),
            },
            { ...ad(3), title: 'Join your home in the app', link: 'app://join-house', sort: 3 },
            {
              ...ad(4),
              title: 'Home insurance week',
              link: 'https://example.com/insurance',
              sort: 4,
              startDate: day(20),
              endDate: day(27),
            },
            {
              ...ad(5),
              title: 'Lunar New Year market',
              link: 'app://announcements',
              sort: 5,
              startDate: day(-40),
              endDate: day(-30),
            },
            { ...ad(1), title: 'Gym membership offer', link: 'https://example.com/gym', sort: 6, enabled: false },
          ]
        : [{ ...ad(2), title: 'Valley community day', link: 'app://announcements', sort: 1 }],
    );
  }
}
