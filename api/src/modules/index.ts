// Every domain module of the api. Adding a module is one line here (and one import).
import type { ApiModule } from '../http/define-route';
import { authModule } from './auth/auth.routes';
import { messageModule } from './message/message.routes';
import { residentModule } from './resident/resident.routes';
import { uploadModule } from './upload/upload.routes';

export const modules: ApiModule[] = [authModule, messageModule, uploadModule, residentModule];
