import { accountEndpoints } from './account';
import { announcementEndpoints } from './announcements';
import { authEndpoints } from './auth';
import { chatEndpoints } from './chat';
import { complaintEndpoints, eventOrderEndpoints } from './work-orders';
import { disasterEndpoints } from './disaster';
import { messageEndpoints } from './message';
import { personEndpoints } from './person';
import { propertyEndpoints } from './property';
import { personHouseEndpoints } from './person-house';
import { ownerChangeEndpoints } from './owner-changes';
import { realtimeEndpoints } from './realtime';
import { residentEndpoints } from './resident';
import { roleEndpoints } from './role';
import { systemEndpoints } from './system';
import { uploadEndpoints } from './upload';
import { wallEndpoints } from './wall';
import { estateSettingsEndpoints } from './estate-settings';
import { adEndpoints } from './ads';
import { enterpriseEndpoints } from './enterprise';
import { checkinEndpoints } from './checkin';
import { auditEndpoints } from './audit';

/**
 * Every call of the api, declared once (issue 15). The api serves exactly these (one route each,
 * the route-table test checks it), /openapi.json documents them, the client and the gateway call
 * them by key. A new domain adds its `defineEndpoints` here.
 */
export const endpoints = {
  ...systemEndpoints,
  ...authEndpoints,
  ...accountEndpoints,
  ...roleEndpoints,
  ...personEndpoints,
  ...personHouseEndpoints,
  ...messageEndpoints,
  ...complaintEndpoints,
  ...eventOrderEndpoints,
  ...chatEndpoints,
  ...uploadEndpoints,
  ...residentEndpoints,
  ...realtimeEndpoints,
  ...propertyEndpoints,
  ...disasterEndpoints,
  ...announcementEndpoints,
  ...ownerChangeEndpoints,
  ...wallEndpoints,
  ...estateSettingsEndpoints,
  ...adEndpoints,
  ...enterpriseEndpoints,
  ...checkinEndpoints,
  ...auditEndpoints,
};
export type Endpoints = typeof endpoints;
export type EndpointKey = keyof Endpoints;
