// Every domain module of the api. Adding a module is one line here (and one import).
import type { ApiModule } from '../http/define-route';
import { accountModule } from './account/account.routes';
import { authModule } from './auth/auth.routes';
import { chatModule } from './im/chat.routes';
import { chatUnreadModule } from './im/chat-unread.routes';
import { complaintModule, eventOrderModule } from './complaint/work.routes';
import { messageModule } from './message/message.routes';
import { personHouseModule } from './person/person-house.routes';
import { personModule } from './person/person.routes';
import { realtimeModule } from './realtime/realtime.routes';
import { residentModule } from './resident/resident.routes';
import { roleModule } from './role/role.routes';
import { uploadModule } from './upload/upload.routes';

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
  residentModule,
  // Composes the live counters every module above contributes.
  realtimeModule(() => modules),
];
