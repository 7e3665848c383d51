/** The zones the browser knows, with UTC first; `current` is kept even if the list lacks it. */
function zoneNames(current?: string): string[] {
  const known =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['Asia/Hong_Kong', 'UTC'];
  const names = new Set(['UTC', ...known]);
  if (current) names.add(current);
  return [...names];
}

/** `UTC+08:00` of a zone now ('' when the browser cannot say). */
function offsetOf(zone: string, at: Date): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    return part ? part.replace('GMT', 'UTC').replace(/^UTC$/, 'UTC+00:00') : '';
  } catch {
    return '';
  }
}

/**
 * The time zone choices of basic set-up: IANA names (the same in every language, as the api
 * stores them) with their offset now, e.g. `Asia/Hong_Kong (UTC+08:00)`, UTC first, then by name.
 */
export function timeZoneOptions(current?: string, at = new Date()): { value: string; text: string }[] {
  const [utc, ...rest] = zoneNames(current);
  return [utc, ...rest.filter((z) => z !== utc).sort()].map((z) => {
    const offset = offsetOf(z, at);
    return { value: z, text: offset && z !== 'UTC' ? `${z} (${offset})` : z };
  });
}
