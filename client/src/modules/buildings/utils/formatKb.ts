/** Bytes as whole KB, grouped by thousands (1,234) as en, zh-CN and zh-TW all write them. */
export const formatKb = (bytes: number): string => Math.ceil(bytes / 1024).toLocaleString('en');
