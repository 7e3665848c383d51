/** A voice source is "path?seconds" (SPEC §3); seconds may be missing. */
export function parseVoiceSource(source: string): { url: string; seconds: number | undefined } {
  const i = source.lastIndexOf('?');
  if (i < 0) return { url: source, seconds: undefined };
  const seconds = Number(source.slice(i + 1));
  return {
    url: source.slice(0, i),
    seconds: Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : undefined,
  };
}

/** SPEC §9: seconds with the "s" suffix, minutes:seconds above 60 s. */
export function formatVoiceDuration(seconds: number): { count: number } | { text: string } {
  if (seconds <= 60) return { count: seconds };
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return { text: `${m}:${String(s).padStart(2, '0')}` };
}
