"use client";

import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { LocalDateTime } from "@/components/i18n/local-date-time";
import { Button } from "@/components/ui/button";
import { FOCUS_RING } from "@/components/ui/theme";
import type { NetworkId } from "@/lib/catalogue";
import { validateAddress } from "@/lib/chains/addresses/validate-address";
import type { Translate } from "@/lib/i18n/translator";
import { Countdown } from "./countdown";
import { HostedShell } from "./hosted-shell";
import { callPublicApi, describeApiFailure } from "./pay-api";
import type { HostedClaimPageData, PublicClaimCard } from "@/lib/services/hosted/page-data";
import { useServerNow } from "./use-server-now";

const PANEL = "rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-5 shadow-sm";
const FIELD = `mt-2 block min-h-12 w-full rounded-lg border bg-(--ui-surface) px-3 py-2 font-mono text-base text-(--ui-fg) ${FOCUS_RING}`;
/** How often the page re-reads the card while a claim or its payout is under way. */
const POLL_INTERVAL_MS = 4000;
/** Below a day the claim page counts down; above it, the date says enough. */
const COUNTDOWN_BELOW_SECONDS = 24 * 3600;

/** What the page shows: the form, the check before claiming, or one of the link's end states. */
type View = "form" | "review" | "claimed" | "claimedElsewhere" | "inProgress" | "expired" | "cancelled";

function viewOfCard(card: PublicClaimCard): View {
  switch (card.status) {
    case "funded":
      return card.claimable ? "form" : "expired";
    case "claiming":
      return "inProgress";
    case "claimed":
      return "claimed";
    case "expired":
      return "expired";
    case "cancelled":
      return "cancelled";
  }
}

/** The address as typed, checked for the link's network: the same rule the claim operation applies. */
function checkAddress(t: Translate, data: HostedClaimPageData, text: string): { ok: true } | { ok: false; message: string } {
  const address = text.trim();
  if (address === "") return { ok: false, message: t("claim.addressRequired") };
  const validation = validateAddress(data.card.network as NetworkId, address, { chain: data.addressChain });
  if (validation.ok) return { ok: true };
  return { ok: false, message: validation.reason === "wrong_network" ? t("claim.addressWrongNetwork", { network: data.networkName }) : t("claim.addressMalformed", { network: data.networkName }) };
}

/** Re-reads the card every few seconds while `isActive`; pauses while the tab is hidden. */
function useCardPolling(token: string, isActive: boolean, onCard: (card: PublicClaimCard) => void): void {
  useEffect(() => {
    if (!isActive) return;
    const timer = setInterval(async () => {
      if (document.hidden) return;
      const answer = await callPublicApi<PublicClaimCard>(`/v1/claim/${encodeURIComponent(token)}`);
      if (answer.ok) onCard(answer.result);
    }, POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [token, isActive, onCard]);
}

/**
 * The claim page of a payout link (the link's `claim_url`): what was sent, an address field
 * checked for the link's network as it is typed (a memo where the network takes one), a check
 * before the claim, and the end states — claimed with the payout's progress, claimed from another
 * address, expired, cancelled.
 */
export function ClaimPage({ data }: { data: HostedClaimPageData }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [card, setCard] = useState(data.card);
  const [view, setView] = useState<View>(viewOfCard(data.card));
  const [address, setAddress] = useState("");
  const [memo, setMemo] = useState("");
  const [isAddressTouched, setIsAddressTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const nowMs = useServerNow(data.renderedAtMs);
  const ids = { address: useId(), addressHint: useId(), addressStatus: useId(), memo: useId(), memoHint: useId() };
  const headingRef = useRef<HTMLHeadingElement>(null);

  const secondsLeft = Math.ceil((Date.parse(card.expires_at) - nowMs) / 1000);
  const isPastTerm = secondsLeft <= 0;
  const addressCheck = checkAddress(t, data, address);

  const applyCard = useCallback((next: PublicClaimCard) => {
    setCard(next);
    setView((current) => (current === "claimedElsewhere" ? current : viewOfCard(next)));
  }, []);
  useCardPolling(data.token, view === "inProgress" || (view === "claimed" && !card.payout_is_final), applyCard);

  // The term can end while the page is open: stop offering the form at once.
  const shownView: View = isPastTerm && (view === "form" || view === "review") ? "expired" : view;

  useEffect(() => {
    // Each step change moves the focus to its heading, so keyboard and screen reader users follow.
    if (shownView !== "form") headingRef.current?.focus();
  }, [shownView]);

  function handleReview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setIsAddressTouched(true);
    setServerError(null);
    if (!addressCheck.ok) {
      document.getElementById(ids.address)?.focus();
      return;
    }
    setView("review");
  }

  async function handleClaim() {
    setIsBusy(true);
    setServerError(null);
    const body = { address: address.trim(), ...(memo.trim() ? { memo: memo.trim() } : {}) };
    const answer = await callPublicApi<{ status: string; payout_id: string; address: string }>(`/v1/claim/${encodeURIComponent(data.token)}`, { method: "POST", body: JSON.stringify(body) });
    setIsBusy(false);
    if (answer.ok) {
      setCard((current) => ({ ...current, status: "claimed", claimable: false, claim_address: answer.result.address, payout_status: current.payout_status ?? "process", payout_is_final: false }));
      setView("claimed");
      return;
    }
    switch (answer.code) {
      case "payoutlink.claim_in_progress":
        return setView("claimedElsewhere");
      case "payoutlink.expired":
        return setView("expired");
      case "payoutlink.cancelled":
        return setView("cancelled");
      case "payout.bad_address":
      case "payout.address_network_mismatch":
      case "payoutlink.no_address":
        setView("form");
        return setServerError(answer.code === "payout.address_network_mismatch" ? t("claim.addressWrongNetwork", { network: data.networkName }) : t("claim.addressMalformed", { network: data.networkName }));
      case "compliance.blocked":
        setView("form");
        return setServerError(t("claim.errors.compliance"));
      case "payoutlink.destination_internal":
        setView("form");
        return setServerError(t("claim.errors.internal"));
      default:
        return setServerError(t("claim.errors.unknown", { reason: describeApiFailure(t, answer) }));
    }
  }

  // What arrives: after a claim the payout's own figures, before it the fee quoted now.
  const receipt = card.receive_amount !== undefined ? { receive: card.receive_amount, fee: card.commission ?? "0" } : data.estimate;
  const arriving = i18n.amount(receipt?.receive ?? card.amount);

  const addressMessage = serverError ?? (isAddressTouched || address.trim() !== "" ? (addressCheck.ok ? null : addressCheck.message) : null);
  const isAddressValid = addressCheck.ok && !serverError;

  return (
    <HostedShell theme="system" storeName={data.storeName}>
      <header className="flex flex-col gap-1">
        {card.title ? <p className="text-sm font-medium text-(--ui-muted) wrap-anywhere">{card.title}</p> : null}
        <h1 ref={shownView === "form" ? headingRef : undefined} tabIndex={-1} className="text-2xl font-semibold tracking-tight outline-none">
          {t("claim.heading", { amount: i18n.amount(card.amount), currency: card.currency })}
        </h1>
      </header>

      <section className={PANEL} aria-label={t("claim.network")} data-testid="claim-card" data-status={shownView}>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-(--ui-muted)">{t("claim.network")}</dt>
          <dd className="text-right font-medium">{data.networkName}</dd>
          {receipt ? (
            <>
              <dt className="text-(--ui-muted)">{t("claim.networkFee")}</dt>
              <dd className="text-right font-medium tabular-nums" data-testid="claim-fee">
                {i18n.amount(receipt.fee)} {card.currency}
              </dd>
              <dt className="text-(--ui-muted)">{t("claim.youReceive")}</dt>
              <dd className="text-right font-semibold tabular-nums" data-testid="claim-receive">
                {arriving} {card.currency}
              </dd>
            </>
          ) : null}
          {shownView === "form" || shownView === "review" ? (
            <>
              <dt className="text-(--ui-muted)">{t("claim.expires")}</dt>
              <dd className="text-right font-medium">
                <LocalDateTime iso={card.expires_at} />
              </dd>
            </>
          ) : null}
        </dl>
        {card.note ? (
          <div className="mt-4 border-t border-(--ui-border) pt-3">
            <p className="text-sm text-(--ui-muted)">{t("claim.note")}</p>
            <p className="mt-1 whitespace-pre-line wrap-anywhere">{card.note}</p>
          </div>
        ) : null}
        {(shownView === "form" || shownView === "review") && secondsLeft < COUNTDOWN_BELOW_SECONDS ? (
          <div className="mt-4 flex justify-end border-t border-(--ui-border) pt-3">
            <Countdown expiresAtSeconds={Date.parse(card.expires_at) / 1000} nowMs={nowMs} label={t("claim.expiresIn")} overLabel={t("claim.expires")} overText={t("payment.countdownOver")} />
          </div>
        ) : null}
      </section>

      {shownView === "form" ? (
        <form className={`${PANEL} flex flex-col gap-4`} onSubmit={handleReview} noValidate>
          <div>
            <label htmlFor={ids.address} className="text-sm font-medium">
              {t("claim.address", { coin: card.currency, network: data.networkName })}
            </label>
            <input
              id={ids.address}
              name="address"
              type="text"
              autoComplete="off"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              maxLength={256}
              value={address}
              onChange={(event) => {
                setAddress(event.target.value);
                setServerError(null);
              }}
              onBlur={() => setIsAddressTouched(true)}
              aria-invalid={addressMessage ? true : undefined}
              aria-describedby={`${ids.addressHint} ${ids.addressStatus}`}
              className={`${FIELD} ${addressMessage ? "border-(--ui-danger-border) ring-1 ring-(--ui-danger-border)" : "border-(--ui-border-strong)"}`}
            />
            <p id={ids.addressHint} className="mt-2 text-sm text-(--ui-muted)">
              {t("claim.addressHint", { network: data.networkName })}
            </p>
            <p id={ids.addressStatus} aria-live="polite" data-testid="address-status" className={`mt-1 min-h-5 text-sm font-medium ${addressMessage ? "text-(--ui-danger)" : "text-(--ui-success)"}`}>
              {addressMessage ?? (isAddressValid && address.trim() !== "" ? t("claim.addressLooksRight", { network: data.networkName }) : "")}
            </p>
          </div>
          {card.memo_supported ? (
            <div>
              <label htmlFor={ids.memo} className="text-sm font-medium">
                {t("claim.memo")}
              </label>
              <input
                id={ids.memo}
                name="memo"
                type="text"
                autoComplete="off"
                maxLength={120}
                value={memo}
                onChange={(event) => setMemo(event.target.value)}
                aria-describedby={ids.memoHint}
                className={`${FIELD} border-(--ui-border-strong)`}
              />
              <p id={ids.memoHint} className="mt-2 text-sm text-(--ui-muted)">
                {t("claim.memoHint")}
              </p>
            </div>
          ) : null}
          <Button type="submit" className="w-full">
            {t("claim.review")}
          </Button>
        </form>
      ) : null}

      {shownView === "review" ? (
        <section className={PANEL} aria-labelledby="claim-review-heading">
          <h2 id="claim-review-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
            {t("claim.confirmHeading")}
          </h2>
          <p className="mt-2 text-sm">{t("claim.confirmDetail", { amount: arriving, currency: card.currency, network: data.networkName })}</p>
          <dl className="mt-3 flex flex-col gap-1 text-sm">
            <dt className="text-(--ui-muted)">{t("claim.confirmAddress")}</dt>
            <dd className="rounded-lg bg-(--ui-subtle) px-3 py-2 font-mono break-all" data-testid="review-address">
              {address.trim()}
            </dd>
            {memo.trim() ? (
              <>
                <dt className="mt-2 text-(--ui-muted)">{t("claim.confirmMemo")}</dt>
                <dd className="rounded-lg bg-(--ui-subtle) px-3 py-2 font-mono break-all">{memo.trim()}</dd>
              </>
            ) : null}
          </dl>
          {serverError ? (
            <p role="alert" className="mt-3 rounded-lg border border-(--ui-danger-border) bg-(--ui-danger-bg) px-3 py-2 text-sm text-(--ui-danger)">
              {serverError}
            </p>
          ) : null}
          <div className="mt-4 flex flex-col gap-2">
            <Button onClick={() => void handleClaim()} disabled={isBusy} aria-busy={isBusy} className="w-full">
              {isBusy ? t("claim.claiming") : t("claim.confirm")}
            </Button>
            <Button variant="secondary" onClick={() => setView("form")} disabled={isBusy} className="w-full">
              {t("claim.change")}
            </Button>
          </div>
        </section>
      ) : null}

      {shownView === "claimed" ? <ClaimedState card={card} formattedAmount={arriving} headingRef={headingRef} /> : null}
      {shownView === "claimedElsewhere" ? <EndState tone="warning" heading={t("claim.claimedElsewhereHeading")} detail={t("claim.claimedElsewhereDetail")} headingRef={headingRef} /> : null}
      {shownView === "inProgress" ? <EndState tone="neutral" heading={t("claim.inProgressHeading")} detail={t("claim.inProgressDetail")} headingRef={headingRef} /> : null}
      {shownView === "expired" ? (
        <EndState tone="neutral" heading={t("claim.expiredHeading")} detail={t("claim.expiredDetail")} date={card.expires_at} headingRef={headingRef} />
      ) : null}
      {shownView === "cancelled" ? <EndState tone="neutral" heading={t("claim.cancelledHeading")} detail={t("claim.cancelledDetail")} headingRef={headingRef} /> : null}
    </HostedShell>
  );
}

const TONES = {
  neutral: "border-(--ui-border) bg-(--ui-surface)",
  warning: "border-(--ui-warn-border) bg-(--ui-warn-bg) text-(--ui-warn)",
  success: "border-(--ui-success-border) bg-(--ui-success-bg) text-(--ui-success)",
};

/** An end state in words; a `{date}` in the detail becomes the localised moment. */
function EndState({ tone, heading, detail, date, headingRef }: { tone: keyof typeof TONES; heading: string; detail: string; date?: string; headingRef: React.RefObject<HTMLHeadingElement | null> }) {
  const [before, after] = detail.split("{date}");
  return (
    <section role="status" className={`rounded-2xl border p-5 shadow-sm ${TONES[tone]}`} data-testid="claim-state">
      <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
        {heading}
      </h2>
      <p className="mt-2 text-sm">
        {before}
        {date !== undefined && after !== undefined ? (
          <>
            <LocalDateTime iso={date} />
            {after}
          </>
        ) : null}
      </p>
    </section>
  );
}

/** Claimed: where the money goes and how far the payout has come (claimed → sent → confirmed). */
function ClaimedState({ card, formattedAmount, headingRef }: { card: PublicClaimCard; formattedAmount: string; headingRef: React.RefObject<HTMLHeadingElement | null> }) {
  const { t } = useI18n();
  const payoutStatus = card.payout_status ?? "check";
  const isFailed = payoutStatus === "fail" || payoutStatus === "cancel";
  const stepsDone = payoutStatus === "paid" ? 3 : payoutStatus === "process" && card.txid ? 2 : 1;
  const steps = [t("claim.payout.step1"), t("claim.payout.step2"), t("claim.payout.step3")];
  return (
    <>
      <section role="status" className={`rounded-2xl border p-5 shadow-sm ${TONES.success}`} data-testid="claim-state">
        <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
          {t("claim.claimedHeading")}
        </h2>
        <p className="mt-2 text-sm">{t("claim.claimedDetail", { amount: formattedAmount, currency: card.currency })}</p>
      </section>
      <section className={PANEL} aria-labelledby="payout-progress-heading" data-testid="payout-progress" data-payout-status={payoutStatus}>
        <h2 id="payout-progress-heading" className="text-sm font-medium text-(--ui-muted)">
          {t("claim.payout.heading")}
        </h2>
        <p className={`mt-1 text-lg font-semibold ${isFailed ? "text-(--ui-danger)" : ""}`}>{t(`claim.payout.${payoutStatus}`)}</p>
        {isFailed ? null : (
          <ol className="mt-4 grid grid-cols-3 gap-2 text-center text-xs">
            {steps.map((label, index) => {
              const isDone = index < stepsDone;
              return (
                <li key={label} className="flex flex-col items-center gap-1" aria-current={index === stepsDone - 1 ? "step" : undefined}>
                  <span aria-hidden="true" className={`h-2 w-full rounded-full ${isDone ? "bg-(--ui-accent)" : "bg-(--ui-subtle) ring-1 ring-(--ui-border) ring-inset"}`} />
                  <span className={isDone ? "font-medium" : "text-(--ui-muted)"}>
                    {isDone ? "✓ " : ""}
                    {label}
                  </span>
                </li>
              );
            })}
          </ol>
        )}
        <dl className="mt-4 flex flex-col gap-1 text-sm">
          {card.claim_address ? (
            <>
              <dt className="text-(--ui-muted)">{t("claim.payout.address")}</dt>
              <dd className="font-mono break-all" data-testid="claimed-address">
                {card.claim_address}
              </dd>
            </>
          ) : null}
          {card.txid ? (
            <>
              <dt className="mt-2 text-(--ui-muted)">{t("claim.payout.transaction")}</dt>
              <dd className="font-mono text-xs break-all">{card.txid}</dd>
            </>
          ) : null}
        </dl>
      </section>
    </>
  );
}
