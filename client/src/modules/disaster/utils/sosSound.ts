import { sosAlarms } from '../states/sosAlarms';

/** The product's own alarm sound (scripts/make-sos-sound.mjs writes it). */
export const SOS_SOUND_URL = '/sounds/sos-alarm.wav';

let audio: HTMLAudioElement | null = null;

/**
 * Plays the alarm sound. Browsers refuse sound before the person touched the page: then
 * `soundBlocked` is set and the alarm dialog offers a button that plays it (a user gesture).
 */
export function playSosSound(): void {
  try {
    audio ??= new Audio(SOS_SOUND_URL);
    audio.currentTime = 0;
    void audio
      .play()
      .then(() => {
        sosAlarms.soundBlocked = false;
      })
      .catch(() => {
        sosAlarms.soundBlocked = true;
      });
  } catch {
    sosAlarms.soundBlocked = true;
  }
}
