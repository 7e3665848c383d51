import { useLiveEvent } from '../../live/hooks/useLiveEvent';

/**
 * A person joined or left a house (events 12 / 14, messages 27–29 / 31–33): the house's status
 * changed, so the open list fetches its page again (no polling, no reload of the screen).
 */
export function useResidentsReload(reload: () => void): void {
  useLiveEvent((e) => {
    if (e.topic === 'residents') reload();
  });
}
