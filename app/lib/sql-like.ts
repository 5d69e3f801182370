/** A "contains" pattern for LIKE/ILIKE in which the person's % and _ are literal characters. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
