"use client";

import { useId, useMemo, useState, type FormEvent } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { FOCUS_RING } from "@/components/ui/theme";
import { checkCheckoutAmount, toPriceText, type CheckoutAmountProblem } from "@/lib/domain/payment-link/checkout-amount";
import { toPlainDecimal } from "@/lib/i18n/format";
import type { Translate } from "@/lib/i18n/translator";
import { HostedShell } from "./hosted-shell";
import { MethodChoice, groupByCoin, onlyNetworkOf } from "./method-picker";
import { nameNetwork } from "./network-label";
import { callPublicApi, describeApiFailure } from "./pay-api";
import type { HostedCheckoutPageData, PublicLinkCard, PublicPaymentObject } from "@/lib/services/hosted/page-data";

const PANEL = "rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-5 shadow-sm";
const FIELD = `mt-2 block min-h-12 w-full rounded-lg border bg-(--ui-surface) px-3 py-2 text-lg text-(--ui-fg) tabular-nums ${FOCUS_RING}`;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The API's refusals of the buyer's amount, as the field's own problems. */
const AMOUNT_PROBLEM_BY_CODE: Record<string, CheckoutAmountProblem> = {
  "paylink.amount_required": "required",
  "paylink.not_positive": "not_positive",
  "paylink.below_min": "below_min",
  "paylink.above_max": "above_max",
};

function describeAmountProblem(t: Translate, problem: CheckoutAmountProblem, card: PublicLinkCard, decimals: number, amount: (value: string) => string): string {
  const currency = card.currency;
  switch (problem) {
    case "required":
      return t("checkout.amountRequired");
    case "not_number":
      return t("checkout.amountNotNumber", { example: amount("25") });
    case "too_precise":
      return decimals === 0 ? t("checkout.amountNoDecimals") : t("checkout.amountTooPrecise", { count: decimals });
    case "not_positive":
      return t("checkout.amountNotPositive");
    case "below_min":
      return t("checkout.amountBelowMin", { min: amount(card.amount_min ?? "0"), currency });
    case "above_max":
      return card.amount_max ? t("checkout.amountAboveMax", { max: amount(card.amount_max), currency }) : t("checkout.amountNotNumber", { example: amount("25") });
  }
}

/** The limits of an open or range link in words: "Between 5.00 and 500.00 USD". */
function describeLimits(t: Translate, card: PublicLinkCard, amount: (value: string) => string): string {
  const currency = card.currency;
  if (card.amount_min && card.amount_max) return t("checkout.rangeHint", { min: amount(card.amount_min), max: amount(card.amount_max), currency });
  if (card.amount_min) return t("checkout.minHint", { min: amount(card.amount_min), currency });
  if (card.amount_max) return t("checkout.maxHint", { max: amount(card.amount_max), currency });
  return t("checkout.openHint", { currency });
}

/**
 * The checkout of a payment link (`{pay_url}/link/{id}`): the link's card, the buyer's amount for
 * an open or range link (checked as it is typed, by the same rule as the API), the coin and
 * network where the link pins none, then on to the new invoice's payment page. Nothing about the
 * merchant is shown: the card holds nothing about them.
 */
export function CheckoutPage({ data }: { data: HostedCheckoutPageData }) {
  const i18n = useI18n();
  const { t } = i18n;
  const { card } = data;
  const coins = useMemo(() => groupByCoin(data.methods), [data.methods]);
  const isPinned = card.pinned_currency !== undefined && card.pinned_network !== undefined;
  const [amountText, setAmountText] = useState("");
  const [isAmountTouched, setIsAmountTouched] = useState(false);
  const [currency, setCurrency] = useState<string | null>(coins.length === 1 ? coins[0].currency : null);
  const [network, setNetwork] = useState<string | null>(coins.length === 1 ? onlyNetworkOf(coins, coins[0].currency) : null);
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const [serverAmountProblem, setServerAmountProblem] = useState<CheckoutAmountProblem | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  // Prices in the currency's full precision and the locale's notation: "5.00 USD", "5,00 USD".
  const price = (value: string) => i18n.amount(toPriceText(value, data.priceDecimals));
  const ids = { amount: useId(), hint: useId(), amountError: useId(), email: useId(), emailHint: useId(), emailError: useId(), formError: useId() };

  const isFixed = card.amount_mode === "fixed";
  const limits = { decimals: data.priceDecimals, min: card.amount_min ?? null, max: card.amount_max ?? null };
  const amountCheck = isFixed ? null : checkCheckoutAmount(toPlainDecimal(i18n.locale, amountText), limits);
  const amountProblem = serverAmountProblem ?? (amountCheck && !amountCheck.ok && isAmountTouched ? amountCheck.problem : null);
  const amountError = amountProblem ? describeAmountProblem(t, amountProblem, card, data.priceDecimals, price) : null;
  const mustChoose = !isPinned && coins.length > 0;
  const noMethod = !isPinned && coins.length === 0;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    setIsAmountTouched(true);
    if (amountCheck && !amountCheck.ok) {
      document.getElementById(ids.amount)?.focus();
      return;
    }
    if (mustChoose && (!currency || !network)) {
      setFormError(currency ? t("payment.picker.chooseNetwork") : t("payment.picker.chooseCoinAndNetwork"));
      return;
    }
    const trimmedEmail = email.trim();
    if (trimmedEmail && !EMAIL_PATTERN.test(trimmedEmail)) {
      setEmailError(t("checkout.emailInvalid"));
      document.getElementById(ids.email)?.focus();
      return;
    }
    setIsBusy(true);
    const body = {
      ...(amountCheck?.ok ? { amount: amountCheck.amount } : {}),
      ...(mustChoose ? { currency, network } : {}),
      ...(trimmedEmail ? { payer_email: trimmedEmail } : {}),
    };
    const answer = await callPublicApi<PublicPaymentObject>(`/v1/link/${encodeURIComponent(card.link_id)}/checkout`, { method: "POST", body: JSON.stringify(body) });
    if (answer.ok) {
      // The invoice's page on this same service; the buyer stays busy-looking until it loads.
      window.location.assign(`/pay/${encodeURIComponent(answer.result.uuid)}`);
      return;
    }
    setIsBusy(false);
    const problem = AMOUNT_PROBLEM_BY_CODE[answer.code];
    if (problem) {
      setServerAmountProblem(problem);
      document.getElementById(ids.amount)?.focus();
    } else if (answer.code === "email.bad_address") {
      setEmailError(t("checkout.emailInvalid"));
    } else if (answer.code === "paylink.not_found") {
      setFormError(t("checkout.notFoundDetail"));
    } else {
      setFormError(t("checkout.failed", { reason: describeApiFailure(t, answer) }));
    }
  }

  const pinnedKind = isPinned ? (data.methods[0]?.kind ?? null) : null;
  return (
    <HostedShell theme="system" storeName={data.storeName}>
      <header className="flex flex-col gap-1">
        <p className="text-sm font-medium text-(--ui-muted)">{t("checkout.pageTitle")}</p>
        <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere">{card.title}</h1>
        {card.description ? <p className="whitespace-pre-line text-(--ui-muted) wrap-anywhere">{card.description}</p> : null}
      </header>

      <form className="flex flex-col gap-4" onSubmit={handleSubmit} noValidate aria-describedby={formError ? ids.formError : undefined}>
        <section className={PANEL} aria-label={t("checkout.amount")}>
          {isFixed ? (
            <>
              <p className="text-sm font-medium text-(--ui-muted)">{t("checkout.amount")}</p>
              <p className="mt-1 text-3xl font-bold tabular-nums wrap-anywhere" data-testid="checkout-amount">
                {price(card.amount_fixed ?? "")} {card.currency}
              </p>
            </>
          ) : (
            <>
              <label htmlFor={ids.amount} className="text-sm font-medium">
                {t("checkout.amountIn", { currency: card.currency })}
              </label>
              <input
                id={ids.amount}
                name="amount"
                type="text"
                inputMode="decimal"
                autoComplete="off"
                value={amountText}
                onChange={(event) => {
                  setAmountText(event.target.value);
                  setServerAmountProblem(null);
                  if (event.target.value.trim() !== "") setIsAmountTouched(true);
                }}
                onBlur={() => setIsAmountTouched(true)}
                aria-invalid={amountError ? true : undefined}
                aria-describedby={`${ids.hint}${amountError ? ` ${ids.amountError}` : ""}`}
                className={`${FIELD} ${amountError ? "border-(--ui-danger-border) ring-1 ring-(--ui-danger-border)" : "border-(--ui-border-strong)"}`}
              />
              <p id={ids.hint} className="mt-2 text-sm text-(--ui-muted)">
                {describeLimits(t, card, price)}
              </p>
              <p id={ids.amountError} aria-live="polite" data-testid="amount-error" className="mt-1 min-h-5 text-sm font-medium text-(--ui-danger)">
                {amountError}
              </p>
            </>
          )}
        </section>

        {isPinned ? (
          <section className={PANEL}>
            <p className="font-medium" data-testid="pinned-method">
              {t("checkout.payIn", { coin: card.pinned_currency!, network: t("common.onNetwork", { network: nameNetwork(data.networks, card.pinned_network!, pinnedKind) }) })}
            </p>
          </section>
        ) : noMethod ? (
          <section className={PANEL}>
            <h2 className="text-lg font-semibold">{t("payment.picker.noneHeading")}</h2>
            <p className="mt-2 text-sm text-(--ui-muted)">{t("payment.picker.noneDetail")}</p>
          </section>
        ) : (
          <section className={`${PANEL} flex flex-col gap-5`} aria-labelledby="method-heading">
            <h2 id="method-heading" className="text-lg font-semibold">
              {t("payment.picker.heading")}
            </h2>
            <MethodChoice
              coins={coins}
              networks={data.networks}
              currency={currency}
              network={network}
              onCoin={(next) => {
                setCurrency(next);
                setNetwork(onlyNetworkOf(coins, next));
                setFormError(null);
              }}
              onNetwork={(next) => {
                setNetwork(next);
                setFormError(null);
              }}
            />
          </section>
        )}

        <section className={PANEL}>
          <label htmlFor={ids.email} className="text-sm font-medium">
            {t("checkout.email")}
          </label>
          <input
            id={ids.email}
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setEmailError(null);
            }}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={`${ids.emailHint}${emailError ? ` ${ids.emailError}` : ""}`}
            className={`${FIELD} text-base ${emailError ? "border-(--ui-danger-border)" : "border-(--ui-border-strong)"}`}
          />
          <p id={ids.emailHint} className="mt-2 text-sm text-(--ui-muted)">
            {t("checkout.emailHint")}
          </p>
          {emailError ? (
            <p id={ids.emailError} role="alert" className="mt-1 text-sm font-medium text-(--ui-danger)">
              {emailError}
            </p>
          ) : null}
        </section>

        {formError ? (
          <p id={ids.formError} role="alert" className="rounded-lg border border-(--ui-danger-border) bg-(--ui-danger-bg) px-3 py-2 text-sm text-(--ui-danger)">
            {formError}
          </p>
        ) : null}

        <Button type="submit" disabled={isBusy || noMethod} aria-busy={isBusy} className="w-full">
          {isBusy ? t("checkout.submitting") : t("checkout.submit")}
        </Button>
      </form>
    </HostedShell>
  );
}
