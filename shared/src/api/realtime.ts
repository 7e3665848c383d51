import { LiveCountersSchema, LiveIdentitySchema } from '../live-schemas';
import { defineEndpoints } from './endpoint';

// The gateway's calls (internal contract, issue 14).
export const realtimeEndpoints = /* @__PURE__ */ defineEndpoints({
  'GET /realtime/identity': {
    permission: 'authenticated',
    summary:
      "Who the bearer token belongs to, the person's permission codes and when the token expires (the gateway binds each tab to it)",
    response: LiveIdentitySchema,
  },
  'GET /realtime/counters': {
    permission: 'authenticated',
    summary:
      "The caller's live counters (unread messages by type, chat unread, complaint and work-order totals) as of push number pushSeq",
    response: LiveCountersSchema,
  },
});
