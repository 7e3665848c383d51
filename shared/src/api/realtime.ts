import { LiveCountersSchema, LiveIdentitiesSchema, LiveIdentitySchema, TokensBatchSchema } from '../live-schemas';
import { defineEndpoints } from './endpoint';

// The gateway's calls (internal contract, issue 14).
export const realtimeEndpoints = /* @__PURE__ */ defineEndpoints({
  'GET /realtime/identity': {
    permission: 'authenticated',
    summary:
      "Who the bearer token belongs to, the person's permission codes and when the token expires (the gateway binds each tab to it)",
    response: LiveIdentitySchema,
  },
  'POST /realtime/identities': {
    // Each answer is gated by its own token (the body's tokens are the credentials): nothing is
    // learnt that a GET /realtime/identity with that token as Bearer would not answer.
    permission: 'public',
    summary:
      'Who each of up to 100 bearer tokens belongs to (as GET /realtime/identity answers it), null for a token that is not valid: the gateway asks about many tabs in one call',
    body: TokensBatchSchema,
    response: LiveIdentitiesSchema,
  },
  'GET /realtime/counters': {
    permission: 'authenticated',
    summary:
      "The caller's live counters (unread messages by type, chat unread, complaint and work-order totals) as of push number pushSeq",
    response: LiveCountersSchema,
  },
});
