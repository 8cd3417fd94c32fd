import Link from "next/link";
import { FOCUS_RING } from "@/components/ui/theme";

type SearchParams = Record<string, string | string[] | undefined>;

const LINK_CLASS = `inline-flex min-h-11 items-center rounded-lg border border-(--ui-border-strong) px-3 py-2 text-sm font-medium hover:bg-(--ui-subtle) ${FOCUS_RING}`;

/** A path with query parameters (empty ones left out). */
export function hrefOf(path: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * Where a keyset-paginated list is: this page's cursor and the cursors of the pages before it
 * (`trail`, the first page left out). Both live in the URL, so a page is a shareable link and
 * "Previous" goes back although a keyset cursor only walks forwards.
 */
export interface CursorPosition {
  cursor: string | undefined;
  trail: string[];
}

/** The service's cursors are base64url; anything else is dropped (the first page is shown). */
const CURSOR = /^[A-Za-z0-9_-]{1,200}$/;
/**
 * By default, a trail longer than this forgets its oldest pages ("First page" still works). A list
 * may pass a shorter `maxTrail` to keep its URLs shorter.
 */
const MAX_TRAIL = 200;

export function readCursorPosition(params: SearchParams, maxTrail = MAX_TRAIL): CursorPosition {
  const text = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";
  const cursor = text(params.cursor);
  if (!CURSOR.test(cursor)) return { cursor: undefined, trail: [] };
  const trail = text(params.trail)
    .split(".")
    .filter((entry) => CURSOR.test(entry))
    .slice(-maxTrail);
  return { cursor, trail };
}

/** The links under a list: first, previous and next page, each keeping the filters. */
export function cursorPagerLinks(path: string, filters: Record<string, string>, position: CursorPosition, nextCursor: string | null, maxTrail = MAX_TRAIL) {
  const at = (cursor: string | undefined, trail: string[]) => hrefOf(path, { ...filters, cursor, trail: trail.length > 0 ? trail.join(".") : undefined });
  const isFirst = position.cursor === undefined;
  return {
    first: isFirst ? null : at(undefined, []),
    previous: isFirst ? null : position.trail.length === 0 ? at(undefined, []) : at(position.trail[position.trail.length - 1], position.trail.slice(0, -1)),
    next: nextCursor ? at(nextCursor, isFirst ? [] : [...position.trail, position.cursor!].slice(-maxTrail)) : null,
  };
}

/** "First page", "Previous" and "Next page" links under a list, in a nav named `label`; nothing when the list fits one page. */
export function Pager({ label, first, previous, next }: { label: string; first: string | null; previous: string | null; next: string | null }) {
  if (!first && !previous && !next) return null;
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap gap-2">
      {first ? (
        <Link href={first} className={LINK_CLASS}>
          First page
        </Link>
      ) : null}
      {previous ? (
        <Link href={previous} className={LINK_CLASS} rel="prev">
          Previous
        </Link>
      ) : null}
      {next ? (
        <Link href={next} className={LINK_CLASS} rel="next">
          Next page
        </Link>
      ) : null}
    </nav>
  );
}
