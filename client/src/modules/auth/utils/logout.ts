import { signOut } from '../../api';
import { resetSession } from '../states/session';

/** Revokes the token at the api (best effort) and clears token, menu and role (SPEC §4). */
export async function logout(): Promise<void> {
  try {
    await signOut();
  } catch {
    // The token may already be gone; the local session is cleared either way.
  }
  resetSession();
}
