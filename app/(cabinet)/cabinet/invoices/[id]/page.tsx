import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { InvoiceTimeline } from "@/components/cabinet/invoices/invoice-timeline";
import { RefundForm } from "@/components/cabinet/invoices/refund-form";
import { ResendWebhook } from "@/components/cabinet/invoices/resend-webhook";
import { ResolvePayment } from "@/components/cabinet/invoices/resolve-payment";
import { Amount, DataTable, DetailRow, EmptyState, PageHeader, Panel, ShortId, StatusBadge, Time } from "@/components/cabinet/page-kit";
import { buttonClassName } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Copyable } from "@/components/cabinet/copyable";
import { TEXT_LINK } from "@/components/ui/theme";
import { getApiDeps } from "@/lib/api/deps";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { findNetwork, findSettlementAsset } from "@/lib/catalogue";
import { addressChainOf, explorerLinksOf } from "@/lib/chains/registry";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { eventTypeOfStatus, type PaymentStatus } from "@/lib/domain/invoice/status";
import { isAppError } from "@/lib/errors";
import { loadInvoiceDetail, type InvoiceDetail } from "@/lib/services/invoices/load-invoice-detail";
import { getMerchantInvoiceOrThrow } from "@/lib/services/invoices/find-invoice";
import { PAYMENT_STATUS_WORDS, REFUND_STATUS_WORDS } from "@/components/cabinet/invoices/invoice-words";
import { DeliveryBadge } from "@/components/cabinet/webhooks/delivery-badge";

export const metadata: Metadata = { title: "Invoice" };

type PageProps = { params: Promise<{ id: string }> };



function Muted({ children }: { children: ReactNode }) {
  return <span className="text-(--ui-muted)">{children}</span>;
}

const TRANSFER_STATUS_WORDS: Record<string, string> = {
  seen: "Waiting for confirmations",
  confirmed: "Confirmed and counted",
  orphaned: "Its block left the chain",
};

const DELIVERY_TARGET_WORDS: Record<string, string> = { endpoint: "Endpoint", callback: "Callback URL" };


async function findDetail(merchantId: string, id: string): Promise<InvoiceDetail> {
  try {
    return await loadInvoiceDetail(getApiDeps(), merchantId, id);
  } catch (error) {
    // Another merchant's invoice and a malformed id are the same answer: nothing here.
    if (isAppError(error) && error.code === "cabinet.not_found") notFound();
    throw error;
  }
}

export default async function InvoicePage({ params }: PageProps) {
  const actor = await requireActorForPage();
  const { id } = await params;
  const detail = await findDetail(actor.merchantId, id);
  const { payment } = detail;
  const status = payment.payment_status as PaymentStatus;
  const canMoveMoney = roleAllows(actor.role, "money");
  const network = payment.network ? findNetwork(payment.network) : null;
  const networkName = network?.displayName ?? payment.network;
  const asset = payment.payer_currency && payment.network ? findSettlementAsset(payment.payer_currency, payment.network) : null;
  const addressChain = asset ? addressChainOf(getApiDeps().config, asset.network) : "main";
  const eventType = eventTypeOfStatus(status);
  const explorer = explorerLinksOf(getApiDeps().config, payment.network);
  const title = payment.order_id ? `Invoice ${payment.order_id}` : `Invoice ${payment.uuid.slice(0, 8)}`;

  // Underpaid or overpaid payments wait for one decision (/v1/payment/resolve); an accepted
  // underpayment is `paid` now, and its decision stays shown.
  const resolution = status === "wrong_amount" || status === "paid_over" || status === "paid" ? (await getMerchantInvoiceOrThrow(getApiDeps().db, actor.merchantId, { uuid: payment.uuid })).resolution : null;
  const resolveStatus = status === "wrong_amount" || (status === "paid" && resolution === "accepted") ? "wrong_amount" : status === "paid_over" ? "paid_over" : null;
  const needsDecision = resolveStatus !== null && resolution === null;
  const hasReceived = payment.payment_amount !== null;
  const canRefund = asset !== null && hasReceived && !needsDecision;
  const { leftToRefund: left, overpaid: excess } = detail;

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href="/cabinet/invoices" className={TEXT_LINK}>
          ← All invoices
        </Link>
      </nav>
      <PageHeader
        title={title}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={payment.payment_status} label={PAYMENT_STATUS_WORDS[status]} />
            <span className="font-mono text-xs text-(--ui-muted)">{payment.payment_status}</span>
            <span aria-hidden="true">·</span>
            <Amount value={payment.amount} currency={payment.currency} />
          </span>
        }
        actions={
          <>
            <a href={payment.url} target="_blank" rel="noopener noreferrer" className={buttonClassName("secondary")}>
              Open payment page<span className="sr-only"> (opens in a new tab)</span>
            </a>
            <CopyButton
              value={payment.url}
              label="Copy payment link"
              accessibleName="Copy payment link"
              copiedText="Copied"
              announcement="Payment link copied"
              failure="Select the payment link below and copy it"
            />
          </>
        }
      />

      {resolveStatus && asset ? (
        <Panel title={needsDecision ? "Decision needed" : "Decision"} id="decision">
          {canMoveMoney || !needsDecision ? (
            <ResolvePayment
              payment={{
                uuid: payment.uuid,
                status: resolveStatus,
                currency: asset.symbol,
                network: asset.network,
                networkName,
                addressChain,
                received: payment.amount_paid,
                expected: payment.payer_amount,
                excess,
                payerAddress: payment.payer_address,
                resolution: resolution === "accepted" || resolution === "refunded" ? resolution : null,
              }}
            />
          ) : (
            <p className="text-sm text-(--ui-muted)">
              This payment ended {resolveStatus === "wrong_amount" ? "underpaid" : "overpaid"} and waits for a decision by a user who can move money. Your role ({actor.role}) reads
              only.
            </p>
          )}
        </Panel>
      ) : null}

      <Panel title="Payment" id="payment">
        <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[12rem_minmax(0,1fr)]">
          <DetailRow label="Status">
            <StatusBadge status={payment.payment_status} label={PAYMENT_STATUS_WORDS[status]} /> <Muted>{payment.is_final ? "final" : "not final yet"}</Muted>
          </DetailRow>
          <DetailRow label="Price">
            <Amount value={payment.amount} currency={payment.currency} />
          </DetailRow>
          <DetailRow label="To pay">
            {payment.payer_currency ? (
              <>
                <Amount value={payment.payer_amount} currency={payment.payer_currency} /> <Muted>on {networkName}</Muted>
              </>
            ) : (
              <Muted>The buyer has not chosen a coin yet.</Muted>
            )}
          </DetailRow>
          {payment.payer_currency ? (
            <>
              <DetailRow label="Received">
                <Amount value={payment.amount_paid} currency={payment.payer_currency} />
                {detail.confirming !== "0" ? (
                  <Muted>
                    {" "}
                    confirmed, and <Amount value={detail.confirming} currency={payment.payer_currency} /> on its way (confirming)
                  </Muted>
                ) : null}
              </DetailRow>
              <DetailRow label="Still to pay">
                <Amount value={payment.amount_remaining} currency={payment.payer_currency} />
              </DetailRow>
              <DetailRow label="Platform fee">
                {detail.settlement ? <Amount value={detail.settlement.fee} currency={payment.payer_currency} /> : <Muted>Taken when the invoice settles</Muted>}
              </DetailRow>
              <DetailRow label="Net to you">
                {detail.settlement ? (
                  <>
                    <Amount value={detail.settlement.net} currency={payment.payer_currency} /> <Muted>received less the platform fee</Muted>
                  </>
                ) : (
                  <Muted>Known when the invoice settles</Muted>
                )}
              </DetailRow>
            </>
          ) : null}
          <DetailRow label="Refunded">{detail.refundStatus === "none" ? <Muted>Nothing</Muted> : detail.refundStatus === "full" ? "Fully" : "Partly"}</DetailRow>
          <DetailRow label="Deposit address">{payment.address ? <Copyable value={payment.address} name="deposit address" href={explorer.address(payment.address)} /> : <Muted>None until a coin is chosen</Muted>}</DetailRow>
          <DetailRow label="Payer address">
            {payment.payer_address ? <Copyable value={payment.payer_address} name="payer address" href={explorer.address(payment.payer_address)} /> : <Muted>{network && !network.isAccountBased ? "Not known on this network" : "Not known yet"}</Muted>}
          </DetailRow>
          <DetailRow label="Transaction">{payment.txid ? <Copyable value={payment.txid} name="transaction id" href={explorer.transaction(payment.txid)} /> : <Muted>None yet</Muted>}</DetailRow>
          <DetailRow label="Confirmations">
            {payment.txid ? (
              <span className="tabular-nums">
                {payment.confirmations >= payment.required_confirmations
                  ? `${payment.confirmations} (${payment.required_confirmations} needed)`
                  : `${payment.confirmations} of ${payment.required_confirmations}`}
              </span>
            ) : (
              <Muted>—</Muted>
            )}
          </DetailRow>
          <DetailRow label="Created">
            <Time iso={payment.created_at} />
          </DetailRow>
          <DetailRow label="Expires">
            <Time iso={new Date(payment.expired_at * 1000)} />
          </DetailRow>
          <DetailRow label="Last change">
            <Time iso={payment.updated_at} />
          </DetailRow>
          <DetailRow label="Payment page">
            <a href={payment.url} target="_blank" rel="noopener noreferrer" className={`font-mono text-sm break-all ${TEXT_LINK}`}>
              {payment.url}
            </a>
          </DetailRow>
          {payment.payer_email ? <DetailRow label="Payer e-mail">{payment.payer_email}</DetailRow> : null}
          {payment.additional_data ? (
            <DetailRow label="Additional data">
              <span className="font-mono text-xs break-all whitespace-pre-wrap">{payment.additional_data}</span>
            </DetailRow>
          ) : null}
          <DetailRow label="Invoice id">
            <Copyable value={payment.uuid} name="invoice id" />
          </DetailRow>
        </dl>
      </Panel>

      <Panel title="Timeline" id="timeline">
        <InvoiceTimeline events={detail.timeline} />
        {!payment.is_final ? <p className="mt-4 text-sm text-(--ui-muted)">The invoice is not final yet; each step appears here once it is stored.</p> : null}
      </Panel>

      <Panel title="Transfers" id="transfers">
        {detail.transfers.length === 0 ? (
          <EmptyState title="No transfer seen yet">{payment.address ? "Transfers to the deposit address appear here as soon as the network shows them." : "The buyer has not chosen a coin yet."}</EmptyState>
        ) : (
          <DataTable caption="Transfers to the deposit address" headers={["Transaction", "Network", "Amount", "From", "Confirmations", "Status", "Block", "Seen", "Counted"]}>
            {detail.transfers.map((transfer) => (
              <tr key={transfer.id}>
                <td>
                  <ShortId value={transfer.txid} href={explorerLinksOf(getApiDeps().config, transfer.network).transaction(transfer.txid)} linkName={`transaction ${transfer.txid}`} />
                  {transfer.position > 0 ? <div className="text-xs text-(--ui-muted)">output {transfer.position}</div> : null}
                </td>
                <td className="whitespace-nowrap">{transfer.networkName}</td>
                <td>
                  <Amount value={transfer.amount} currency={transfer.currency} />
                </td>
                <td>{transfer.fromAddress ? <ShortId value={transfer.fromAddress} href={explorer.address(transfer.fromAddress)} linkName={`address ${transfer.fromAddress}`} /> : <Muted>—</Muted>}</td>
                <td className="tabular-nums">{transfer.confirmations}</td>
                <td>
                  <StatusBadge status={transfer.status} label={TRANSFER_STATUS_WORDS[transfer.status]} />
                </td>
                <td className="tabular-nums">
                  {transfer.blockHeight !== null ? transfer.blockHeight : <Muted>in the mempool</Muted>}
                  {transfer.blockHash ? (
                    <div>
                      <ShortId value={transfer.blockHash} />
                    </div>
                  ) : null}
                </td>
                <td className="whitespace-nowrap">
                  <Time iso={transfer.seenAt} />
                </td>
                <td className="whitespace-nowrap">{transfer.creditedAt ? <Time iso={transfer.creditedAt} /> : <Muted>Not yet</Muted>}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Panel>

      <Panel title="Webhook deliveries" id="webhooks">
        {eventType ? (
          canMoveMoney ? (
            <div className="mb-4">
              <ResendWebhook uuid={payment.uuid} eventType={eventType} />
            </div>
          ) : (
            <p className="mb-4 text-sm text-(--ui-muted)">Resending the webhook needs a role that handles payments. Your role ({actor.role}) reads only.</p>
          )
        ) : (
          <p className="mb-4 text-sm text-(--ui-muted)">Events are sent when the invoice becomes final (paid, overpaid, underpaid or expired); there is nothing to resend yet.</p>
        )}
        {detail.deliveries.length === 0 ? (
          detail.webhookTargets.endpoint || detail.webhookTargets.callback ? (
            <EmptyState title="No webhook sent for this invoice yet">
              Its events go to {detail.webhookTargets.endpoint ? "your registered endpoint" : "the invoice's url_callback"}
              {detail.webhookTargets.endpoint && detail.webhookTargets.callback ? " and the invoice's url_callback" : ""} when it becomes final.
            </EmptyState>
          ) : (
            <EmptyState title="No webhook sent for this invoice">
              No endpoint is registered and the invoice has no url_callback. Register an endpoint on the{" "}
              <Link href="/cabinet/webhooks" className={TEXT_LINK}>
                Webhooks
              </Link>{" "}
              page, or give a url_callback when creating invoices.
            </EmptyState>
          )
        ) : (
          <DataTable caption="Webhook deliveries of this invoice, oldest first" headers={["Event", "Sent to", "Status", "Attempts", "Last answer", "Created", "Delivered or next attempt"]}>
            {detail.deliveries.map((delivery) => (
              <tr key={delivery.id}>
                <td className="font-mono text-xs whitespace-nowrap">{delivery.eventType}</td>
                <td className="max-w-64">
                  {DELIVERY_TARGET_WORDS[delivery.target] ?? delivery.target}
                  <div className="font-mono text-xs break-all text-(--ui-muted)">{delivery.url}</div>
                </td>
                <td>
                  <DeliveryBadge status={delivery.status === "pending" && delivery.lastError !== "" ? "retrying" : delivery.status} />
                </td>
                <td className="tabular-nums">{delivery.attempts}</td>
                <td className="max-w-64 text-xs break-words">
                  {delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : null}
                  {delivery.lastError ? <div className="text-(--ui-muted)">{delivery.lastError}</div> : delivery.lastStatusCode === null ? <Muted>—</Muted> : null}
                </td>
                <td className="whitespace-nowrap">
                  <Time iso={delivery.createdAt} />
                </td>
                <td className="whitespace-nowrap">
                  {delivery.deliveredAt ? (
                    <Time iso={delivery.deliveredAt} />
                  ) : delivery.nextAttemptAt ? (
                    <>
                      <Muted>next </Muted>
                      <Time iso={delivery.nextAttemptAt} />
                    </>
                  ) : (
                    <Muted>{delivery.status === "dead" ? "gave up" : "—"}</Muted>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Panel>

      <Panel title="Refunds" id="refunds">
        {detail.refunds.length === 0 ? (
          <p className="mb-4 text-sm text-(--ui-muted)">No refund has been made for this payment.</p>
        ) : (
          <div className="mb-4">
            <DataTable caption="Refunds of this payment, oldest first" headers={["Created", "Amount", "Recipient gets", "Address", "Status", "Transaction", "Payout"]}>
              {detail.refunds.map((refund) => (
                <tr key={refund.uuid}>
                  <td className="whitespace-nowrap">
                    <Time iso={refund.created_at} />
                  </td>
                  <td>
                    <Amount value={refund.amount} currency={refund.currency} />
                  </td>
                  <td>
                    <Amount value={refund.receive_amount} currency={refund.currency} />
                  </td>
                  <td>
                    <ShortId value={refund.address} href={explorerLinksOf(getApiDeps().config, refund.network).address(refund.address)} linkName={`address ${refund.address}`} />
                  </td>
                  <td>
                    <StatusBadge status={refund.status} label={REFUND_STATUS_WORDS[refund.status]} />
                  </td>
                  <td>{refund.txid ? <ShortId value={refund.txid} href={explorerLinksOf(getApiDeps().config, refund.network).transaction(refund.txid)} linkName={`transaction ${refund.txid}`} /> : <Muted>Not sent yet</Muted>}</td>
                  <td>
                    <Link href={`/cabinet/payouts/${refund.uuid}`} className={`whitespace-nowrap ${TEXT_LINK}`}>
                      Open<span className="sr-only"> refund payout {refund.uuid}</span>
                    </Link>
                  </td>
                </tr>
              ))}
            </DataTable>
          </div>
        )}
        {!canRefund ? (
          <p className="text-sm text-(--ui-muted)">
            {needsDecision
              ? "Decide on the under- or overpayment above first: refunding is one of the choices."
              : payment.payer_currency
                ? "Nothing has arrived yet: there is nothing to refund."
                : "The buyer has not chosen a coin: there is nothing to refund."}
          </p>
        ) : canMoveMoney ? (
          <RefundForm
            payment={{ uuid: payment.uuid, currency: asset.symbol, network: asset.network, networkName, addressChain, payerAddress: payment.payer_address, left }}
          />
        ) : left === "0" ? (
          <p className="text-sm text-(--ui-muted)">Everything this payment received is refunded.</p>
        ) : (
          <p className="text-sm text-(--ui-muted)">Refunds are made by users who can move money. Your role ({actor.role}) reads only.</p>
        )}
      </Panel>
    </>
  );
}
