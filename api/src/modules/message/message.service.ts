/**
 * The message panel's use cases (SPEC §7 "Messages"): each is the repository's query as it
 * stands, scoped to the owner the route derives from the caller.
 */
export { countUnread, listMessages, markRead, type MessageOwner } from './message.repository';
