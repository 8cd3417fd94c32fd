"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { themeClassName, toThemeName, FOCUS_RING } from "@/components/ui/theme";
import { Countdown } from "./countdown";
import { describeStatus, isAwaitingFunds, isSuccessful, toSafeHttpUrl, type StatusDescription } from "./describe-status";
import { MethodPicker } from "./method-picker";
import { describeNetwork } from "./network-label";
import { fetchPayment, selectMethod } from "./pay-api";
import { PaymentInstructions } from "./payment-instructions";
import { SandboxPanel } from "./sandbox-panel";
import { StatusPanel } from "./status-panel";
import { SuccessActions } from "./success-actions";
import type { HostedPaymentPageData, PublicPaymentObject } from "./types";
import { useSandboxWallet } from "./use-sandbox-wallet";

/** How often the page asks for the invoice's status while it is not final. */
const POLL_INTERVAL_MS = 3000;
/** Failed polls in a row before the buyer is told the connection is lost. */
const FAILURES_BEFORE_NOTICE = 2;

/** Whether `next` is at least as recent as `current`: answers can arrive out of order. */
function isNotOlder(next: PublicPaymentObject, current: PublicPaymentObject): boolean {
  return Date.parse(next.updated_at) >= Date.parse(current.updated_at);
}

/** The server's clock, ticking every second; starts at the render time so hydration matches. */
function useServerNow(renderedAtMs: number): number {
  const [nowMs, setNowMs] = useState(renderedAtMs);
  useEffect(() => {
    // The page's render time is the best estimate of the server clock at hydration; the
    // difference also absorbs a wrong clock on the buyer's device.
    const skewMs = renderedAtMs - Date.now();
    const tick = () => setNowMs(Date.now() + skewMs);
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [renderedAtMs]);
  return nowMs;
}

/** Polls `GET /v1/pay/{id}` until the invoice is final; pauses while the tab is hidden. */
function usePaymentPolling(invoiceId: string, isFinal: boolean, applyPayment: (payment: PublicPaymentObject) => void): string | null {
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
  return failures >= FAILURES_BEFORE_NOTICE ? "Connection lost — retrying…" : null;
}

export function PaymentPage({ data }: { data: HostedPaymentPageData }) {
  const [payment, setPayment] = useState(data.payment);
  const applyPayment = useCallback((next: PublicPaymentObject) => setPayment((current) => (isNotOlder(next, current) ? next : current)), []);
  const nowMs = useServerNow(data.renderedAtMs);
  const connectionNotice = usePaymentPolling(payment.uuid, payment.is_final, applyPayment);
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
  const networkLabel = payment.network ? describeNetwork(data.networks, payment.network, assetKind) : "";
  const price = `${payment.amount} ${payment.currency}`;
  const returnUrl = toSafeHttpUrl(payment.url_return);
  const successUrl = toSafeHttpUrl(payment.url_success);
  const isSandboxAvailable = payment.network !== "" && data.sandboxNetworks.includes(payment.network);

  // The term can end before the server's expiry work has run: stop offering the address at once.
  const description: StatusDescription = isPastTerm && (status === "check" || status === "select")
    ? { tone: "neutral", headline: "Expired", detail: "The time to pay this invoice is over. Do not send funds to its address; go back to the store to start again." }
    : describeStatus(payment);
  const isShowingTimer = (status === "select" || isAwaitingFunds(status)) && !payment.is_final;

  async function handleSelect(method: { currency: string; network: string }): Promise<string | null> {
    const answer = await selectMethod(payment.uuid, method);
    if (!answer.ok) return answer.message;
    shouldFocusAmount.current = true;
    applyPayment(answer.payment);
    return null;
  }

  return (
    <div className={`${themeClassName(toThemeName(payment.theme))} min-h-dvh bg-(--ui-page) text-(--ui-fg)`}>
      <main className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 pt-4 pb-10 sm:pt-10">
        <header className="flex flex-col gap-1">
          {returnUrl ? (
            <a href={returnUrl} className={`-ml-2 inline-flex min-h-11 items-center gap-1 self-start rounded-lg px-2 text-sm font-medium text-(--ui-link) hover:underline ${FOCUS_RING} focus-visible:ring-offset-(--ui-page)`}>
              <span aria-hidden="true">←</span> Back to store
            </a>
          ) : null}
          <h1 className="text-2xl font-semibold tracking-tight">Pay {price}</h1>
          {payment.order_id ? <p className="text-sm text-(--ui-muted)">Order {payment.order_id}</p> : null}
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
          timer={isShowingTimer ? <Countdown expiresAtSeconds={payment.expired_at} nowMs={nowMs} /> : undefined}
          notice={connectionNotice}
        />

        {status === "select" && !isPastTerm ? <MethodPicker methods={data.methods} networks={data.networks} onSelect={handleSelect} /> : null}

        {isAwaitingFunds(status) && !isPastTerm && payment.address ? (
          <PaymentInstructions
            amount={status === "wrong_amount_waiting" ? payment.amount_remaining : payment.payer_amount}
            coin={coin}
            networkLabel={networkLabel}
            price={price}
            address={payment.address}
            qrCode={payment.address_qr_code}
            isRemainder={status === "wrong_amount_waiting"}
            amountPaid={payment.amount_paid}
            payerAmount={payment.payer_amount}
          />
        ) : null}

        {(status === "confirm_check" || payment.is_final) && coin ? <PaymentSummary payment={payment} networkLabel={networkLabel} price={price} /> : null}

        {isSuccessful(status) && successUrl ? <SuccessActions successUrl={successUrl} /> : null}

        {isSandboxAvailable && (isAwaitingFunds(status) || sandbox.isRunning) && !isPastTerm ? (
          <SandboxPanel onPay={() => void sandbox.pay()} isRunning={sandbox.isRunning} error={sandbox.error} canPay={isAwaitingFunds(status)} />
        ) : null}

        <footer className="mt-2 text-center text-xs text-(--ui-muted)">
          Invoice <span className="font-mono wrap-anywhere">{payment.uuid}</span>
        </footer>
      </main>
    </div>
  );
}

/** What was paid: shown once a payment is on its way and on final invoices. */
function PaymentSummary({ payment, networkLabel, price }: { payment: PublicPaymentObject; networkLabel: string; price: string }) {
  const received = payment.payment_amount ?? payment.amount_paid;
  return (
    <section aria-labelledby="summary-heading" className="rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-5 shadow-sm">
      <h2 id="summary-heading" className="text-sm font-medium text-(--ui-muted)">
        Payment details
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-(--ui-muted)">Price</dt>
        <dd className="text-right font-medium">{price}</dd>
        <dt className="text-(--ui-muted)">Amount due</dt>
        <dd className="text-right font-medium tabular-nums wrap-anywhere">
          {payment.payer_amount} {payment.payer_currency}
        </dd>
        {received && received !== "0" ? (
          <>
            <dt className="text-(--ui-muted)">Received</dt>
            <dd className="text-right font-medium tabular-nums wrap-anywhere">
              {received} {payment.payer_currency}
            </dd>
          </>
        ) : null}
        <dt className="text-(--ui-muted)">Network</dt>
        <dd className="text-right font-medium">{networkLabel.replace(/^on /, "")}</dd>
        {payment.txid ? (
          <>
            <dt className="text-(--ui-muted)">Transaction</dt>
            <dd className="text-right font-mono text-xs leading-relaxed break-all">{payment.txid}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
