import { AppError, type ErrorCode } from "@/lib/errors";
import { isUuid } from "@/lib/domain/input/uuid";

/** A position in a newest-first list: the row (created_at, id) after which the next page starts. */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

/** An opaque cursor for a position. */
export function encodeCursor(row: KeysetPosition): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`, "utf8").toString("base64url");
}

/** The position of a cursor; anything else is the list's own `badCursor` code. */
export function decodeCursor(cursor: string, badCursor: ErrorCode): KeysetPosition {
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(iso ?? "");
  if (!id || !isUuid(id) || Number.isNaN(createdAt.getTime())) throw new AppError(badCursor);
  return { createdAt, id };
}

/**
 * The rows after a position, newest first (for a Prisma `where`). The plain `created_at <=` bound
 * beside the OR lets PostgreSQL start an index scan at the cursor instead of reading every newer row.
 */
export function after(position: KeysetPosition | null) {
  return position
    ? { AND: [{ createdAt: { lte: position.createdAt } }, { OR: [{ createdAt: { lt: position.createdAt } }, { createdAt: position.createdAt, id: { lt: position.id } }] }] }
    : {};
}
