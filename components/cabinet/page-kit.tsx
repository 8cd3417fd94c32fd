import type { ReactNode } from "react";
import { LocalDateTime } from "@/components/i18n/local-date-time";
import { formatDecimal, withFiatDecimals } from "@/lib/i18n/format";
import Link from "next/link";
import { Alert } from "@/components/cabinet/form-controls";
import { TEXT_LINK } from "@/components/ui/theme";
import { isAppError } from "@/lib/errors";

/** A page's title, one line on what it is for, and its main actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold">{title}</h1>
        {description ? <p className="mt-1 text-sm text-(--ui-muted)">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

/** A titled panel of a cabinet page. */
export function Panel({ title, id, actions, children }: { title: string; id: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mb-6 rounded-xl border border-(--ui-border) bg-(--ui-surface) p-4 shadow-sm sm:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** What an empty list says, with the way to fill it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-(--ui-border-strong) px-4 py-8 text-center">
      <p className="font-medium">{title}</p>
      {children ? <div className="mt-1 text-sm text-(--ui-muted)">{children}</div> : null}
    </div>
  );
}

/**
 * A table that scrolls sideways on a phone instead of squeezing its columns; `caption` names it
 * for screen readers. `relative` keeps screen-reader-only text (absolutely placed) inside the
 * scrolling box; otherwise it widens the whole page.
 */
export function DataTable({ caption, headers, children }: { caption: string; headers: ReactNode[]; children: ReactNode }) {
  return (
    <div className="relative -mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full min-w-[36rem] border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-(--ui-border) text-(--ui-muted)">
            {headers.map((header, index) => (
              <th key={index} scope="col" className="px-2 py-2 font-medium whitespace-nowrap">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="[&>tr]:border-b [&>tr]:border-(--ui-border) [&_td]:px-2 [&_td]:py-2 [&_td]:align-top">{children}</tbody>
      </table>
    </div>
  );
}

/** An amount with its coin, every digit kept (decimal strings, never floats). */
export function Amount({ value, currency }: { value: string; currency: string }) {
  return (
    <span className="font-mono tabular-nums whitespace-nowrap">
      {formatDecimal("en", withFiatDecimals(value, currency))} <span className="text-(--ui-muted)">{currency}</span>
    </span>
  );
}

/** A moment in the user's time zone (UTC until the browser knows it). */
export function Time({ iso }: { iso: string | Date | null | undefined }) {
  if (!iso) return <span className="text-(--ui-muted)">—</span>;
  return <LocalDateTime iso={typeof iso === "string" ? iso : iso.toISOString()} />;
}

const STATUS_TONES: Record<string, string> = {
  good: "border-(--ui-success-border) bg-(--ui-success-bg) text-(--ui-success)",
  warn: "border-(--ui-warn-border) bg-(--ui-warn-bg) text-(--ui-warn)",
  bad: "border-(--ui-danger-border) bg-(--ui-danger-bg) text-(--ui-danger)",
  neutral: "border-(--ui-border) bg-(--ui-subtle) text-(--ui-fg)",
};

const TONE_OF_STATUS: Record<string, keyof typeof STATUS_TONES> = {
  paid: "good",
  paid_over: "good",
  confirmed: "good",
  delivered: "good",
  active: "good",
  success: "good",
  claimed: "good",
  process: "warn",
  check: "warn",
  pending: "warn",
  confirm_check: "warn",
  wrong_amount_waiting: "warn",
  approved: "warn",
  sent: "warn",
  claiming: "warn",
  retrying: "warn",
  wrong_amount: "bad",
  fail: "bad",
  failed: "bad",
  cancel: "bad",
  cancelled: "bad",
  system_fail: "bad",
  dead: "bad",
  refused: "bad",
  failure: "bad",
  blocked: "bad",
  revoked: "bad",
};

/**
 * A status in a coloured pill: the words people read (`label`, the words of the page's filters),
 * coloured by the status's code; the word itself carries the meaning (not only the colour). The
 * code the API answers stays in the pill's tooltip.
 */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  const tone = STATUS_TONES[TONE_OF_STATUS[status] ?? "neutral"];
  return (
    <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap ${tone}`} title={label ? status : undefined}>
      {label ?? status.replaceAll("_", " ")}
    </span>
  );
}

/** A long identifier (uuid, address, txid) shortened for a table cell, whole in its title and to copy. */
export function ShortId({ value, href, linkName }: { value: string; href?: string | null; linkName?: string }) {
  const short = value.length > 18 ? `${value.slice(0, 8)}…${value.slice(-6)}` : value;
  if (href) {
    return (
      <ExplorerLink href={href} name={linkName ?? value} className="font-mono text-xs" title={value}>
        {short}
      </ExplorerLink>
    );
  }
  return (
    <span className="font-mono text-xs" title={value}>
      {short}
    </span>
  );
}

/** A link to a block explorer's page, in a new tab, told to screen readers. */
export function ExplorerLink({ href, name, className, title, children }: { href: string; name: string; className?: string; title?: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" title={title} className={`${className ?? ""} ${TEXT_LINK}`} data-explorer-link="">
      {children}
      <span className="sr-only"> ({name} on the block explorer, opens in a new tab)</span>
    </a>
  );
}

/** One term and its value in a `<dl>` of details (an invoice's, a payout's). */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-sm font-medium text-(--ui-muted)">{label}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </>
  );
}

/**
 * A list page's first read: the page, or the refusal's message (a cursor from an old link, a
 * filter the service refuses) for ListFailure to show. Anything else is a bug and throws.
 */
export async function readListPage<T>(load: () => Promise<T>): Promise<{ page: T | null; failure: string | null }> {
  try {
    return { page: await load(), failure: null };
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { page: null, failure: error.message };
  }
}

/** Why a list could not be shown, with the way back to its first page. */
export function ListFailure({ message, firstPage }: { message: string; firstPage: string }) {
  return (
    <div className="flex flex-col gap-3">
      <Alert>{message}</Alert>
      <Link href={firstPage} className={`text-sm ${TEXT_LINK}`}>
        Back to the first page
      </Link>
    </div>
  );
}
