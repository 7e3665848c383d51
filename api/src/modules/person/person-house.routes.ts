import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { IdParamsSchema, IdSchema, PersonAssetSchema, type PersonAsset } from '@pm/shared';
import { queryRows } from '../../db/sql';
import { AppError } from '../../http/app-error';
import { defineRoute, type ApiModule } from '../../http/define-route';
import { reviewJoinRequest } from './join-review.service';

/** Screens that open a person's houses: complaint and work-order details, units, SOS help calls. */
const MAY_SEE_ASSETS = ['complain:view', 'eventorder:view', 'unit:view', 'disasterwarn:list'];

interface RawAsset {
  id: number;
  house_type: number;
  identity: number;
  house_cert_code: string | null;
  house_cert_img: string | null;
  build_name: string | null;
  floor_name: string | null;
  unit_name: string | null;
  room: number | null;
  living_room: number | null;
  restroom: number | null;
  unit_invite: number | null;
  carpark_code: string | null;
  space_invite: number | null;
  shop_code: string | null;
  shop_invite: number | null;
  person_name: string;
  gender: number;
  images: unknown;
}

function toAsset(r: RawAsset): PersonAsset {
  const images = (typeof r.images === 'string' ? JSON.parse(r.images) : r.images) as { url: string }[];
  return {
    personHouseId: r.id,
    type: r.house_type,
    identity: r.identity,
    unit:
      r.unit_name === null
        ? null
        : {
            buildName: r.build_name ?? '',
            floorName: r.floor_name ?? '',
            name: r.unit_name,
            room: r.room,
            livingRoom: r.living_room,
            restroom: r.restroom,
            invitePerson: r.unit_invite,
          },
    carpark: r.carpark_code === null ? null : { carparkCode: r.carpark_code, invitePerson: r.space_invite },
    shop: r.shop_code === null ? null : { shopCode: r.shop_code, invitePerson: r.shop_invite },
    person: { name: r.person_name, gender: r.gender, images: images ?? [] },
    houseCertCode: r.house_cert_code,
    houseCertImg: r.house_cert_img,
  };
}

/** Approve (2) or refuse (3) a pending request to join a house. */
const JoinReviewSchema = z.object({
  personHouseId: IdSchema,
  status: z.union([z.literal(2), z.literal(3)]),
});

/** A person's houses in the caller's estate ("more industries", SPEC §2, §3 "Person asset"). */
export const personHouseModule: ApiModule = {
  name: 'person-house',
  routes: [
    defineRoute({
      method: 'get',
      path: '/base/personhouse/list/:id',
      permission: 'authenticated',
      summary: `The approved houses of person {id} in the caller's estate. Needs one of ${MAY_SEE_ASSETS.join(', ')}`,
      params: IdParamsSchema,
      response: z.array(PersonAssetSchema),
      handler: async (ctx, { params }) => {
        if (!MAY_SEE_ASSETS.some((p) => ctx.caller.perms.has(p))) throw AppError.forbidden();
        const rows = await queryRows<RawAsset>(
          ctx.db,
          sql`select ph.id, ph.house_type, ph.identity, ph.house_cert_code, ph.house_cert_img,
                b.name as build_name, f.name as floor_name, u.name as unit_name, u.room, u.living_room, u.restroom,
                u.invite_person as unit_invite, cs.carpark_code, cs.invite_person as space_invite,
                s.shop_code, s.invite_person as shop_invite, p.name as person_name, p.gender, p.images
              from person_house ph
                join person p on p.id = ph.person_id
                left join unit u on u.id = ph.unit_id
                left join floor f on f.id = u.floor_id
                left join block b on b.id = u.block_id
                left join car_space cs on cs.id = ph.car_space_id
                left join shop s on s.id = ph.shop_id
              where ph.person_id = ${params.id} and ph.status = 2
                and ph.company_id = ${ctx.tenant.companyId} and ph.housing_estate_id = ${ctx.tenant.housingEstateId}
              order by ph.house_type, ph.id`,
        );
        return rows.map(toAsset);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/base/personhouse/review',
      permission: 'authenticated',
      summary:
        "Decides a pending request to join a house { personHouseId, status 2 approve | 3 refuse } → { personHouseId, status }. Staff of the house's estate with unit:list, carpark:list or shop:list (by house type) decide any request; the house's approved owner decides tenants and relatives. Anything else answers 404. The person who asked gets event 12 with the outcome.",
      body: JoinReviewSchema,
      response: z.object({ personHouseId: z.number(), status: z.number() }),
      handler: async (ctx, { body }) =>
        reviewJoinRequest(
          {
            db: ctx.db,
            realtime: ctx.services.realtime,
            onPushError: (err) => ctx.log.error({ err }, 'push after commit failed'),
          },
          ctx.caller,
          body,
        ),
    }),
  ],
};
