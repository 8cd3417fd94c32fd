"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { toInvoiceTheme, FOCUS_RING } from "@/components/ui/theme";
import { useI18n } from "@/components/i18n/i18n-provider";
import { InvoiceCountdown } from "./countdown";
import { describeStatus, isAwaitingFunds, isSuccessful, toSafeHttpUrl, type StatusDescription } from "./describe-status";
import { MethodPicker } from "./method-picker";
import { HostedShell } from "./hosted-shell";
import { describeNetwork, nameNetwork } from "./network-label";
import { describeApiFailure, fetchPayment, selectMethod } from "./pay-api";
import { PaymentInstructions } from "./payment-instructions";
import { SandboxPanel } from "./sandbox-panel";
import { StatusPanel } from "./status-panel";
import { SuccessActions } from "./success-actions";
import { ButtonLink } from "@/components/ui/button";
import { walletTargetKey, type HostedPaymentPageData, type PublicPaymentObject } from "@/lib/services/hosted/page-data";
import { parseAmount } from "@/lib/domain/money/amount";
import { buildPaymentUri, type PaymentUriTarget } from "@/lib/domain/payment-uri/payment-uri";
import { useSandboxWallet } from "./use-sandbox-wallet";
import { useServerNow } from "./use-server-now";

/** How often the page asks for the invoice's status while it is not final. */
const POLL_INTERVAL_MS = 3000;
/** Failed polls in a row before the buyer is told the connection is lost. */
const FAILURES_BEFORE_NOTICE = 2;

/** Whether `next` is at least as recent as `current`: answers can arrive out of order. */
function isNotOlder(next: PublicPaymentObject, current: PublicPaymentObject): boolean {
  return Date.parse(next.updated_at) >= Date.parse(current.updated_at);
}

/** The wallet link for sending `amount` (a decimal string of the coin) to `address`, or null. */
function toWalletUri(target: PaymentUriTarget | undefined, address: string, amount: string): string | null {
  if (!target) return null;
  const amountMinor = parseAmount(amount, target.decimals);
  return amountMinor === null || amountMinor === 0n ? null : buildPaymentUri(target, address, amountMinor);
}

/** Polls `GET /v1/pay/{id}` until the invoice is final; pauses while the tab is hidden. */
function usePaymentPolling(invoiceId: string, isFinal: boolean, applyPayment: (payment: PublicPaymentObject) => void): boolean {
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (isFinal) return;
    let isStopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      if (!document.hidden) {
        const answer = await fetchPayment(invoiceId);
        if (isStopped) return;
        if (answer.ok) {
          setFailures(0);
          applyPayment(answer.payment);
        } else {
          setFailures((count) => count + 1);
        }
      }
      if (!isStopped) timer = setTimeout(poll, POLL_INTERVAL_MS);
    };
    const pollNowIfVisible = () => {
      if (document.hidden) return;
      clearTimeout(timer);
      void poll();
    };
    timer = setTimeout(poll, POLL_INTERVAL_MS);
    document.addEventListener("visibilitychange", pollNowIfVisible);
    return () => {
      isStopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", pollNowIfVisible);
    };
  }, [invoiceId, isFinal, applyPayment]);
  return failures >= FAILURES_BEFORE_NOTICE;
}

export function PaymentPage({ data }: { data: HostedPaymentPageData }) {
  const [payment, setPayment] = useState(data.payment);
  const applyPayment = useCallback((next: PublicPaymentObject) => setPayment((current) => (isNotOlder(next, current) ? next : current)), []);
  const nowMs = useServerNow(data.renderedAtMs);
  const i18n = useI18n();
  const { t } = i18n;
  const isConnectionLost = usePaymentPolling(payment.uuid, payment.is_final, applyPayment);
  const sandbox = useSandboxWallet(payment.uuid, applyPayment);
  const shouldFocusAmount = useRef(false);

  useEffect(() => {
    // The picker disappeared with the focus in it: continue from the amount the buyer must send.
    if (!shouldFocusAmount.current) return;
    const heading = document.getElementById("amount-heading");
    if (heading) {
      heading.focus();
      shouldFocusAmount.current = false;
    }
  }, [payment.payment_status]);

  const status = payment.payment_status;
  const isPastTerm = !payment.is_final && payment.expired_at * 1000 <= nowMs;
  const coin = payment.payer_currency;
  const assetKind = data.methods.find((method) => method.currency === coin && method.network === payment.network)?.kind ?? data.assetKind;
  const networkLabel = payment.network ? describeNetwork(t, data.networks, payment.network, assetKind) : "";
  const networkName = payment.network ? nameNetwork(data.networks, payment.network, assetKind) : "";
  const price = `${i18n.amount(payment.amount)} ${payment.currency}`;
  const returnUrl = toSafeHttpUrl(payment.url_return);
  const successUrl = toSafeHttpUrl(payment.url_success);
  const storeName = data.storeName;
  const backLabel = storeName ? t("payment.backToNamedStore", { store: storeName }) : t("payment.backToStore");
  const amountToSend = status === "wrong_amount_waiting" ? payment.amount_remaining : payment.payer_amount;
  const walletUri = coin && payment.network && payment.address ? toWalletUri(data.walletTargets[walletTargetKey(coin, payment.network)], payment.address, amountToSend) : null;
  const isSandboxAvailable = payment.network !== "" && data.sandboxNetworks.includes(payment.network);

  // The term can end before the server's expiry work has run: stop offering the address at once.
  const description: StatusDescription = isPastTerm && (status === "check" || status === "select")
    ? { tone: "neutral", headline: t("payment.status.expiredHeadline"), detail: t("payment.status.pastTermDetail") }
    : describeStatus(payment, i18n);
  const isShowingTimer = (status === "select" || isAwaitingFunds(status)) && !payment.is_final;

  async function handleSelect(method: { currency: string; network: string }): Promise<string | null> {
    const answer = await selectMethod(payment.uuid, method);
    if (!answer.ok) return describeApiFailure(t, answer);
    shouldFocusAmount.current = true;
    applyPayment(answer.payment);
    return null;
  }

  return (
    <HostedShell theme={toInvoiceTheme(payment.theme)} storeName={storeName}>
      <header className="flex flex-col gap-1">
        {/* Once the invoice is final, the way back is the button below the status instead. */}
        {returnUrl && !payment.is_final ? (
          <a href={returnUrl} className={`-ml-2 inline-flex min-h-11 items-center gap-1 self-start rounded-lg px-2 text-sm font-medium text-(--ui-link) hover:underline ${FOCUS_RING} focus-visible:ring-offset-(--ui-page)`}>
            <span aria-hidden="true">←</span> {backLabel}
          </a>
        ) : null}
        <h1 className="text-2xl font-semibold tracking-tight">{t("payment.title", { price })}</h1>
        {payment.order_id ? <p className="text-sm text-(--ui-muted)">{t("payment.order", { orderId: payment.order_id })}</p> : null}
      </header>

      {/* One place announces status changes, so screen readers hear each change once. */}
      <p aria-live="polite" aria-atomic="true" className="sr-only" data-testid="status-announcement">
        {description.headline}
      </p>

      <StatusPanel
        status={status}
        description={description}
        confirmations={payment.confirmations}
        requiredConfirmations={payment.required_confirmations}
        timer={isShowingTimer ? <InvoiceCountdown expiresAtSeconds={payment.expired_at} nowMs={nowMs} /> : undefined}
        notice={isConnectionLost ? t("common.connectionLost") : null}
      />

      {status === "select" && !isPastTerm ? <MethodPicker methods={data.methods} networks={data.networks} onSelect={handleSelect} /> : null}

      {isAwaitingFunds(status) && !isPastTerm && payment.address ? (
        <PaymentInstructions
          amount={amountToSend}
          coin={coin}
          networkLabel={networkLabel}
          price={price}
          address={payment.address}
          qrCode={payment.address_qr_code}
          isRemainder={status === "wrong_amount_waiting"}
          amountPaid={payment.amount_paid}
          payerAmount={payment.payer_amount}
          walletUri={walletUri}
        />
      ) : null}

      {(status === "confirm_check" || payment.is_final) && coin ? <PaymentSummary payment={payment} networkName={networkName} price={price} /> : null}

      {payment.is_final && isSuccessful(status) && (successUrl || returnUrl) ? <SuccessActions successUrl={successUrl} returnUrl={returnUrl} backLabel={backLabel} /> : null}
      {payment.is_final && !isSuccessful(status) && returnUrl ? (
        <ButtonLink href={returnUrl} variant="secondary" className="w-full text-center wrap-anywhere" data-testid="back-to-store">
          {backLabel}
        </ButtonLink>
      ) : null}

      {isSandboxAvailable && (isAwaitingFunds(status) || sandbox.isRunning) && !isPastTerm ? (
        <SandboxPanel onPay={() => void sandbox.pay()} isRunning={sandbox.isRunning} error={sandbox.error} canPay={isAwaitingFunds(status)} />
      ) : null}

      <footer className="mt-2 text-center text-xs wrap-anywhere text-(--ui-muted)">{t("payment.invoice", { uuid: payment.uuid })}</footer>
    </HostedShell>
  );
}

/** What was paid: shown once a payment is on its way and on final invoices. */
function PaymentSummary({ payment, networkName, price }: { payment: PublicPaymentObject; networkName: string; price: string }) {
  const { t, amount } = useI18n();
  const received = payment.payment_amount ?? payment.amount_paid;
  return (
    <section aria-labelledby="summary-heading" className="rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-5 shadow-sm">
      <h2 id="summary-heading" className="text-sm font-medium text-(--ui-muted)">
        {t("payment.summary.heading")}
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-(--ui-muted)">{t("payment.summary.price")}</dt>
        <dd className="text-right font-medium">{price}</dd>
        <dt className="text-(--ui-muted)">{t("payment.summary.amountDue")}</dt>
        <dd className="text-right font-medium tabular-nums wrap-anywhere">
          {amount(payment.payer_amount)} {payment.payer_currency}
        </dd>
        {received && received !== "0" ? (
          <>
            <dt className="text-(--ui-muted)">{t("payment.summary.received")}</dt>
            <dd className="text-right font-medium tabular-nums wrap-anywhere">
              {amount(received)} {payment.payer_currency}
            </dd>
          </>
        ) : null}
        <dt className="text-(--ui-muted)">{t("payment.summary.network")}</dt>
        <dd className="text-right font-medium">{networkName}</dd>
        {payment.txid ? (
          <>
            <dt className="text-(--ui-muted)">{t("payment.summary.transaction")}</dt>
            <dd className="text-right font-mono text-xs leading-relaxed break-all">{payment.txid}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
