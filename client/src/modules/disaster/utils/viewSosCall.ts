import { fetchSos } from '../../api';
import { mergeCall, showCall, sosAlarms } from '../states/sosAlarms';

/**
 * Shows an SOS call in the alarm dialog ("View" of an alarm message). It reads nothing: the
 * alarm stays unread until someone acknowledges the call (the api then reads it for everyone).
 * Answers the call's state, or null when it could not be read.
 */
export async function viewSosCall(id: number): Promise<'open' | 'acknowledged' | 'closed' | null> {
  const known = sosAlarms.calls[id];
  if (known) {
    showCall(id);
    return known.state;
  }
  try {
    const call = await fetchSos(id);
    showCall(id);
    mergeCall(call);
    return call.state;
  } catch {
    return null;
  }
}
