import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { Alert } from "@/components/cabinet/form-controls";
import { Amount, DetailRow, ExplorerLink, PageHeader, Panel, StatusBadge, Time } from "@/components/cabinet/page-kit";
import { PayoutDecisionPanel } from "@/components/cabinet/payouts/payout-decision";
import { INTERNAL_STATUS_WORDS, KIND_WORDS, STATUS_CHIP_WORDS } from "@/components/cabinet/payouts/payout-words";
import { buttonClassName } from "@/components/ui/button";
import { Copyable } from "@/components/cabinet/copyable";
import { TEXT_LINK } from "@/components/ui/theme";
import { getApiDeps } from "@/lib/api/deps";
import { userActor } from "@/lib/cabinet/actions/payout-actions";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { findNetwork, networkDisplayName } from "@/lib/catalogue";
import { explorerLinksOf, type ExplorerLinks } from "@/lib/chains/registry";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { findPayoutDetail, type PayoutTimelineEvent } from "@/lib/services/payouts/find-payout-detail";
import { type PayoutKind, type PayoutListItem } from "@/lib/services/payouts/search-payouts";
import type { CoarsePayoutStatus } from "@/lib/domain/payout/transition";

export const metadata: Metadata = { title: "Payout" };

type PageProps = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };



const TRANSFER_WORDS: Record<string, string> = {
  planned: "planned, waiting to be signed",
  signed: "signed, waiting to be broadcast",
  broadcast: "broadcast to the network",
  seen: "in a block, gathering confirmations",
  confirmed: "confirmed on chain",
  failed: "refused by the network; nothing was sent",
  replaced: "replaced before it was mined; nothing was sent",
};

/** A transaction id whole, linked to the block explorer where there is one. */
function Txid({ txid, explorer }: { txid: string; explorer: ExplorerLinks }) {
  const href = explorer.transaction(txid);
  return href ? (
    <ExplorerLink href={href} name={`transaction ${txid}`} className="font-mono break-all">
      {txid}
    </ExplorerLink>
  ) : (
    <span className="font-mono break-all">{txid}</span>
  );
}

/** One timeline event in words, from what is stored. */
function TimelineEntry({ event, currency, explorer }: { event: PayoutTimelineEvent; currency: string; explorer: ExplorerLinks }) {
  let title: ReactNode;
  let detail: ReactNode = null;
  switch (event.kind) {
    case "created":
      title = <>Created by {event.by.label}</>;
      detail = event.reserved ? (
        <>
          <Amount value={event.reserved} currency={currency} /> reserved from the available balance.
        </>
      ) : null;
      break;
    case "converted":
      title = "Funded by conversion";
      detail = (
        <>
          <Amount value={event.fromAmount} currency={event.fromCurrency} /> on {networkDisplayName(event.fromNetwork)} converted at {event.rate} {event.fromCurrency} per {currency}.
        </>
      );
      break;
    case "approved":
      title = event.isAtCreation ? <>Approved at creation ({event.by.label}: payouts made this way need no second approval)</> : <>Approved by {event.by.label}</>;
      break;
    case "rejected":
      title = <>Rejected by {event.by.label}</>;
      break;
    case "cancelled":
      title = <>Cancelled by {event.by.label}</>;
      break;
    case "transfer":
      title = (
        <>
          Attempt {event.attempt}: transfer {TRANSFER_WORDS[event.status] ?? event.status}
        </>
      );
      detail = (
        <>
          {event.txid ? (
            <span className="block">
              Transaction <Txid txid={event.txid} explorer={explorer} />
            </span>
          ) : null}
          {event.replacedTxids.length > 0 ? (
            <span className="block">
              Replaced with a higher fee after waiting unmined ({event.replacedTxids.length === 1 ? "once" : `${event.replacedTxids.length} times`}); earlier:{" "}
              {event.replacedTxids.map((txid) => (
                <span key={txid} className="block">
                  <Txid txid={txid} explorer={explorer} />
                </span>
              ))}
            </span>
          ) : null}
          {event.error ? <span className="block">Last answer: {event.error}</span> : null}
          <span className="block">
            Planned <Time iso={event.at} />; last change <Time iso={event.updatedAt} />.
          </span>
        </>
      );
      break;
    case "confirmed":
      title = "Confirmed: the recipient has the money";
      detail = event.txid ? (
        <>
          Transaction <Txid txid={event.txid} explorer={explorer} />
        </>
      ) : null;
      break;
    case "released":
      title =
        event.outcome === "cancelled"
          ? "Cancelled: the reserve is back in the balance"
          : event.outcome === "rejected"
            ? "Rejected: the reserve is back in the balance"
            : "Failed: nothing was sent, the reserve is back in the balance";
      detail = event.reason ? <>Reason: {event.reason}</> : null;
      break;
  }
  return (
    <li className="relative border-l-2 border-(--ui-border-strong) pb-4 pl-4 last:pb-0">
      <span aria-hidden="true" className="absolute top-1.5 -left-[7px] size-3 rounded-full border-2 border-(--ui-surface) bg-(--ui-accent)" />
      <p className="text-sm text-(--ui-muted)">
        <Time iso={event.at} />
      </p>
      <p className="font-medium">{title}</p>
      {detail ? <div className="mt-1 text-sm text-(--ui-muted)">{detail}</div> : null}
    </li>
  );
}

export default async function PayoutPage({ params, searchParams }: PageProps) {
  const actor = await requireActorForPage();
  const { id } = await params;
  const detail = await findPayoutDetail(getApiDeps(), actor.merchantId, id);
  if (!detail) notFound();
  const { payout } = detail;
  const isJustCreated = (await searchParams).created === "1";
  const isPending = payout.internal_status === "pending";
  const isOwn = detail.createdBy.actor === userActor(actor.userId);
  const canDecide = roleAllows(actor.role, "money");
  const networkName = findNetwork(payout.network)?.displayName ?? payout.network;
  const explorer = explorerLinksOf(getApiDeps().config, payout.network);

  return (
    <>
      <PageHeader
        title="Payout"
        description={
          <>
            Order id <span className="font-mono break-all">{payout.order_id}</span>
          </>
        }
        actions={
          <Link href="/cabinet/payouts" className={buttonClassName("secondary")}>
            Back to payouts
          </Link>
        }
      />

      {isJustCreated && isPending ? (
        <div className="mb-6">
          <Alert tone="success">Payout created. It is awaiting approval by another user of your store.</Alert>
        </div>
      ) : null}

      {isPending ? (
        <Panel title="Awaiting approval" id="approval">
          {detail.hold ? <p className="mb-4 text-sm">{describeHold(detail.hold)}</p> : null}
          {canDecide ? (
            <PayoutDecisionPanel payout={{ uuid: payout.uuid, orderId: payout.order_id, isOwn }} />
          ) : (
            <p className="text-sm text-(--ui-muted)">Another user with the right to move money approves or rejects it. Your role ({actor.role}) reads only.</p>
          )}
        </Panel>
      ) : null}

      <Panel title="Details" id="details">
        <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[12rem_minmax(0,1fr)]">
          <DetailRow label="Status">
            <StatusBadge status={payout.status} label={STATUS_CHIP_WORDS[payout.status as CoarsePayoutStatus]} /> <span className="text-(--ui-muted)">{INTERNAL_STATUS_WORDS[payout.internal_status] ?? payout.internal_status}</span>
            {payout.wait_reason && !payout.is_final ? <span className="mt-1 block text-(--ui-warn)">Waiting: {payout.wait_reason}</span> : null}
          </DetailRow>
          <DetailRow label="Kind">{KIND_WORDS[payout.kind as PayoutKind] ?? payout.kind}</DetailRow>
          <DetailRow label="Amount">
            <Amount value={payout.amount} currency={payout.currency} /> <span className="text-(--ui-muted)">on {networkName}</span>
          </DetailRow>
          <DetailRow label="Payout fee">
            <Amount value={payout.commission} currency={payout.currency} />{" "}
            <span className="text-(--ui-muted)">{payout.is_subtract ? "(added on top)" : "(taken from the amount)"}</span>
          </DetailRow>
          <DetailRow label="Recipient receives">
            <Amount value={payout.receive_amount} currency={payout.currency} />
          </DetailRow>
          <DetailRow label="Balance gives">
            <Amount value={payout.debit_amount} currency={payout.currency} />
          </DetailRow>
          <DetailRow label="Address">
            <Copyable value={payout.address} name="address" href={explorer.address(payout.address)} />
          </DetailRow>
          {payout.memo ? <DetailRow label="Memo">{payout.memo}</DetailRow> : null}
          <DetailRow label="Transaction">{payout.txid ? <Copyable value={payout.txid} name="transaction id" href={explorer.transaction(payout.txid)} /> : <span className="text-(--ui-muted)">Not sent yet</span>}</DetailRow>
          <DetailRow label="Created">
            <Time iso={payout.created_at} /> <span className="text-(--ui-muted)">by {detail.createdBy.label}</span>
          </DetailRow>
          <DetailRow label="Approved">
            {detail.approvedAt && detail.approvedBy ? (
              <>
                <Time iso={detail.approvedAt} /> <span className="text-(--ui-muted)">by {detail.approvedBy.label}</span>
              </>
            ) : (
              <span className="text-(--ui-muted)">{isPending ? "Not yet" : "Never"}</span>
            )}
          </DetailRow>
          <DetailRow label="Source">{payout.source === "manual" ? "Manual (needs a second user's approval)" : "API or service (approved at creation)"}</DetailRow>
          {payout.payment_uuid ? (
            <DetailRow label="Payment">
              <Link href={`/cabinet/invoices/${payout.payment_uuid}`} className={`${TEXT_LINK} font-mono break-all`}>
                {payout.payment_uuid}
              </Link>
            </DetailRow>
          ) : null}
          {detail.staticWalletId ? (
            <DetailRow label="Static wallet">
              <Link href="/cabinet/wallets" className={TEXT_LINK}>
                Blocked wallet <span className="font-mono">{detail.staticWalletId}</span>
              </Link>
            </DetailRow>
          ) : null}
          {detail.payoutLinkId ? (
            <DetailRow label="Payout link">
              <Link href="/cabinet/payout-links" className={TEXT_LINK}>
                Claimed link <span className="font-mono">{detail.payoutLinkId}</span>
              </Link>
            </DetailRow>
          ) : null}
          {payout.convert ? (
            <DetailRow label="Converted from">
              <Amount value={payout.convert.from_amount} currency={payout.convert.from_currency} /> on {networkDisplayName(payout.convert.from_network)} at {payout.convert.rate}
            </DetailRow>
          ) : null}
          <DetailRow label="Payout id">
            <Copyable value={payout.uuid} name="payout id" />
          </DetailRow>
        </dl>
      </Panel>

      <Panel title="Timeline" id="timeline">
        <ol className="ml-2">
          {detail.timeline.map((event, index) => (
            <TimelineEntry key={`${event.kind}:${index}`} event={event} currency={payout.currency} explorer={explorer} />
          ))}
        </ol>
        {!payout.is_final ? <p className="mt-4 text-sm text-(--ui-muted)">The payout is not final yet; this page shows each step once it is stored.</p> : null}
      </Panel>
    </>
  );
}

/** Why the money-out policy holds a pending payout, in words. */
function describeHold(hold: NonNullable<PayoutListItem["hold"]>): string {
  const at = hold.autoApproveAt ? new Date(hold.autoApproveAt).toUTCString() : null;
  if (hold.reason === "freeze") {
    return `Money out is frozen after a new API key or a loosened control (a new auto-withdraw or split address, a raised threshold). It goes out when the freeze lifts${at ? `, at ${at}` : ""}, unless it is cancelled.`;
  }
  const why = hold.reason === "threshold" ? "It is above your store's money-out thresholds" : "It was made in the cabinet";
  if (!at) return `${why}: another person with the right to move money approves or rejects it.`;
  return `${why}, and nobody else in your store may approve it: it goes out at ${at} unless it is cancelled.`;
}
