/** Only same-origin paths are followed after sign-in, never another site. */
export function safeRedirect(target: string | null | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/login')) return '/';
  return target;
}
