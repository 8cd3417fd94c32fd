import Link from "next/link";
import type { ReactNode } from "react";
import { Amount, StatusBadge, Time } from "@/components/cabinet/page-kit";
import { TEXT_LINK } from "@/components/ui/theme";
import { findNetwork } from "@/lib/catalogue";
import type { TimelineEvent } from "@/lib/services/invoices/load-invoice-detail";
import { PAYMENT_STATUS_WORDS, REFUND_STATUS_WORDS } from "./invoice-words";
import type { PaymentStatus } from "@/lib/domain/invoice/status";


const FINAL_WORDS: Record<string, string> = {
  paid: "Paid in full",
  paid_over: "Paid more than asked",
  wrong_amount: "Ended underpaid: the term ran out before the rest arrived",
  cancel: "Expired without payment",
};

const WEBHOOK_WORDS: Record<string, string> = {
  queued: "queued",
  delivered: "delivered",
  retrying: "failed, will retry",
  dead: "gave up after every attempt",
};

const TARGET_WORDS: Record<string, string> = { endpoint: "your endpoint", callback: "the invoice's callback URL" };

function Txid({ value }: { value: string }) {
  return <span className="font-mono text-xs break-all">{value}</span>;
}

/** One stored fact of the invoice's life, in words. */
function TimelineEntry({ event }: { event: TimelineEvent }) {
  let title: ReactNode;
  let detail: ReactNode = null;
  switch (event.kind) {
    case "created":
      title = (
        <>
          Invoice created for <Amount value={event.amount} currency={event.currency} />
        </>
      );
      break;
    case "transfer_seen":
      title = (
        <>
          Transfer of <Amount value={event.amount} currency={event.currency} /> seen on {findNetwork(event.network)?.displayName ?? event.network}
        </>
      );
      detail = (
        <>
          Transaction <Txid value={event.txid} />
        </>
      );
      break;
    case "transfer_credited":
      title = event.credit === 1 ? "Transfer confirmed and counted" : `Transfer counted again (time ${event.credit}), back in a block after a reorganisation`;
      detail = (
        <>
          Transaction <Txid value={event.txid} />
        </>
      );
      break;
    case "transfer_reversed":
      title = "Transfer no longer counted: its block left the chain";
      detail = (
        <>
          Transaction <Txid value={event.txid} />
        </>
      );
      break;
    case "settled":
      title = event.settlement === 0 ? "Settled: your balance was credited, net of the fee" : `Settled again (settlement ${event.settlement + 1})`;
      break;
    case "settlement_clawed_back":
      title = "Settlement taken back after the transfer was reversed";
      detail = (
        <>
          Transaction <Txid value={event.txid} />
        </>
      );
      break;
    case "final":
      title = (
        <>
          {FINAL_WORDS[event.status] ?? "Became final"} <StatusBadge status={event.status} label={PAYMENT_STATUS_WORDS[event.status as PaymentStatus]} />
        </>
      );
      break;
    case "webhook":
      title = (
        <>
          Webhook <span className="font-mono text-sm">{event.eventType}</span> to {TARGET_WORDS[event.target] ?? event.target}: {WEBHOOK_WORDS[event.outcome]}
        </>
      );
      detail =
        event.attempts > 0 ? (
          <>
            {event.attempts === 1 ? "1 attempt" : `${event.attempts} attempts`}
            {event.lastStatusCode !== null ? `, last answer HTTP ${event.lastStatusCode}` : ""}.
          </>
        ) : null;
      break;
    case "refund_created":
      title = (
        <>
          Refund of <Amount value={event.amount} currency={event.currency} /> created <StatusBadge status={event.status} label={REFUND_STATUS_WORDS[event.status]} />
        </>
      );
      detail = (
        <Link href={`/cabinet/payouts/${event.payoutId}`} className={TEXT_LINK}>
          Open the refund&apos;s payout
        </Link>
      );
      break;
  }
  return (
    <li className="relative border-l-2 border-(--ui-border-strong) pb-4 pl-4 last:pb-0">
      <span aria-hidden="true" className="absolute top-1.5 -left-[7px] size-3 rounded-full border-2 border-(--ui-surface) bg-(--ui-accent)" />
      <p className="text-sm text-(--ui-muted)">
        <Time iso={event.at} />
      </p>
      <p className="font-medium break-words">{title}</p>
      {detail ? <div className="mt-1 text-sm text-(--ui-muted)">{detail}</div> : null}
    </li>
  );
}

/** The invoice's timeline, oldest first, as an ordered list. */
export function InvoiceTimeline({ events }: { events: TimelineEvent[] }) {
  return (
    <ol className="ml-2" aria-label="Invoice timeline, oldest first">
      {events.map((event, index) => (
        <TimelineEntry key={`${event.kind}:${index}`} event={event} />
      ))}
    </ol>
  );
}
