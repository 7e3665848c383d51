import { signOut } from '../../api';
import { resetSession, session } from '../states/session';

/**
 * Clears token, menu and role (SPEC §4), then revokes the token at the api (best effort). Local
 * first: the gateway's "logged out" event for this token must find this tab already signed out,
 * not ask "you have logged out, stay or sign in again?".
 */
export async function logout(): Promise<void> {
  const token = session.token;
  resetSession();
  if (!token) return;
  try {
    await signOut(token);
  } catch {
    // The token may already be gone; the local session is cleared either way.
  }
}
