/** SPEC §5 "Only enter numbers": the message key of a whole-number field's text, or null when fine. */
export function numberError(text: string, min: number, max: number, rangeKey: string): string | null {
  if (text.trim() === '') return 'buildings.messages.required';
  if (!/^\d+$/.test(text.trim())) return 'buildings.messages.onlyNumbers';
  const n = Number(text);
  return n < min || n > max ? rangeKey : null;
}
