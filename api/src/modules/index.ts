// Every domain module of the api. Adding a module is one line here (and one import).
import type { ApiModule } from '../http/define-route';
import { accountModule } from './account/account.routes';
import { announcementModule } from './announcement/announcement.routes';
import { residentAnnouncementModule } from './announcement/resident-announcement.routes';
import { authModule } from './auth/auth.routes';
import { residentDisasterModule } from './disaster/resident-disaster.routes';
import { disasterModule } from './disaster/disaster.routes';
import { chatModule } from './im/chat.routes';
import { chatUnreadModule } from './im/chat-unread.routes';
import { messageModule } from './message/message.routes';
import { personHouseModule } from './person/person-house.routes';
import { ownerChangesModule } from './person/owner-changes.routes';
import { personModule } from './person/person.routes';
import { propertyModule } from './property/property.routes';
import { residentHousesModule } from './person/resident-houses.routes';
import { realtimeModule } from './realtime/realtime.routes';
import { roleModule } from './role/role.routes';
import { uploadModule } from './upload/upload.routes';
import { residentWorkOrdersModule } from './work-orders/resident-work-orders.routes';
import { complaintModule, eventOrderModule } from './work-orders/work-orders.routes';
import { wallModule } from './wall/wall.routes';
import { estateSettingsModule } from './estate-settings/estate-settings.routes';
import { adModule } from './ads/ads.routes';
import { residentAdModule } from './ads/resident-ads.routes';
import { enterpriseModule } from './enterprise/enterprise.routes';
import { checkinModule } from './checkin/checkin.routes';
import { auditModule } from './audit/audit.routes';

export const modules: ApiModule[] = [
  authModule,
  accountModule,
  roleModule,
  personModule,
  personHouseModule,
  messageModule,
  complaintModule,
  eventOrderModule,
  chatUnreadModule,
  chatModule,
  uploadModule,
  propertyModule,
  disasterModule,
  announcementModule,
  ownerChangesModule,
  wallModule,
  estateSettingsModule,
  adModule,
  enterpriseModule,
  checkinModule,
  auditModule,
  // The resident API (DESIGN §5), each domain's own calls.
  residentHousesModule,
  residentWorkOrdersModule,
  residentDisasterModule,
  residentAnnouncementModule,
  residentAdModule,
  // Composes the live counters every module above contributes.
  realtimeModule(() => modules),
];
