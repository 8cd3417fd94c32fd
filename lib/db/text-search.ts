/**
 * What the cabinet's search boxes match: text containing the query in any case, the query's own
 * `%`, `_` and `\` taken literally. Prisma's `contains` becomes LIKE/ILIKE and escapes nothing,
 * so the escape is PostgreSQL's default one, the backslash.
 */
export function containsText(query: string): { contains: string; mode: "insensitive" } {
  return { contains: query.replace(/[\\%_]/g, (character) => `\\${character}`), mode: "insensitive" };
}
