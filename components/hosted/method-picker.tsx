"use client";

import { useId, useMemo, useState, type FormEvent } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import type { HostedMethod, HostedNetworkInfo } from "@/lib/services/hosted/page-data";

export interface CoinGroup {
  currency: string;
  methods: HostedMethod[];
}

/** Methods grouped by coin, in catalogue order. */
export function groupByCoin(methods: HostedMethod[]): CoinGroup[] {
  const groups = new Map<string, CoinGroup>();
  for (const method of methods) {
    const group = groups.get(method.currency) ?? { currency: method.currency, methods: [] };
    group.methods.push(method);
    groups.set(method.currency, group);
  }
  return [...groups.values()];
}

const TILE =
  "relative flex min-h-12 cursor-pointer items-center justify-center rounded-lg border border-(--ui-border-strong) bg-(--ui-surface) px-3 py-2 text-base font-semibold transition-colors hover:bg-(--ui-subtle) has-[:checked]:border-(--ui-accent) has-[:checked]:bg-(--ui-accent-soft) has-[:checked]:ring-1 has-[:checked]:ring-(--ui-accent) has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-(--ui-ring) has-[:focus-visible]:ring-offset-2 has-[:focus-visible]:ring-offset-(--ui-surface)";

const ROW =
  "flex min-h-12 cursor-pointer items-center gap-3 rounded-lg border border-(--ui-border) bg-(--ui-surface) px-3 py-2 transition-colors hover:bg-(--ui-subtle) has-[:checked]:border-(--ui-accent) has-[:checked]:bg-(--ui-accent-soft) has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-(--ui-ring) has-[:focus-visible]:ring-offset-2 has-[:focus-visible]:ring-offset-(--ui-surface)";

/**
 * spec: POST /v1/pay/{id}/select — the buyer picks a coin, then one of its networks. Native radio
 * buttons: one Tab stop per group, arrow keys move within it, Space selects, Enter submits.
 */
export function MethodPicker({
  methods,
  networks,
  onSelect,
}: {
  methods: HostedMethod[];
  networks: Record<string, HostedNetworkInfo>;
  /** Submits the choice; resolves to an error message to show, or null on success. */
  onSelect(method: { currency: string; network: string }): Promise<string | null>;
}) {
  const { t } = useI18n();
  const coins = useMemo(() => groupByCoin(methods), [methods]);
  const [currency, setCurrency] = useState<string | null>(null);
  const [network, setNetwork] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const headingId = useId();
  const errorId = useId();

  const chosenCoin = coins.find((coin) => coin.currency === currency) ?? null;

  function chooseCoin(next: string) {
    setCurrency(next);
    setNetwork(onlyNetworkOf(coins, next));
    setError(null);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!currency || !network) {
      setError(currency ? t("payment.picker.chooseNetwork") : t("payment.picker.chooseCoinAndNetwork"));
      return;
    }
    setIsBusy(true);
    setError(null);
    const message = await onSelect({ currency, network });
    // On success the page replaces this form; only a refusal leaves it on screen.
    if (message) {
      setError(message);
      setIsBusy(false);
    }
  }

  if (coins.length === 0) {
    return (
      <section className="rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-5 shadow-sm">
        <h2 className="text-lg font-semibold">{t("payment.picker.noneHeading")}</h2>
        <p className="mt-2 text-sm text-(--ui-muted)">{t("payment.picker.noneDetail")}</p>
      </section>
    );
  }

  const networkName = network ? (networks[network]?.name ?? network) : null;
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-5 shadow-sm">
      <h2 id={headingId} className="text-lg font-semibold">
        {t("payment.picker.heading")}
      </h2>
      <form className="mt-4 flex flex-col gap-5" onSubmit={handleSubmit} aria-describedby={error ? errorId : undefined} noValidate>
        <MethodChoice
          coins={coins}
          networks={networks}
          currency={currency}
          network={network}
          onCoin={chooseCoin}
          onNetwork={(next) => {
            setNetwork(next);
            setError(null);
          }}
        />

        {error ? (
          <p id={errorId} role="alert" className="rounded-lg border border-(--ui-danger-border) bg-(--ui-danger-bg) px-3 py-2 text-sm text-(--ui-danger)">
            {error}
          </p>
        ) : null}

        <Button type="submit" disabled={isBusy} aria-busy={isBusy} className="w-full">
          {isBusy ? t("payment.picker.preparing") : chosenCoin && networkName ? t("payment.picker.payWith", { coin: chosenCoin.currency, network: networkName }) : t("payment.picker.showDetails")}
        </Button>
      </form>
    </section>
  );
}

/** A coin on a single network leaves nothing to choose; otherwise the network is the buyer's call. */
export function onlyNetworkOf(coins: CoinGroup[], currency: string): string | null {
  const group = coins.find((coin) => coin.currency === currency);
  return group && group.methods.length === 1 ? group.methods[0].network : null;
}

/**
 * The coin, then the network: two native radio groups (one Tab stop each, arrow keys within).
 * Controlled by the caller; shared by the payment page's picker and the link checkout.
 */
export function MethodChoice({
  coins,
  networks,
  currency,
  network,
  onCoin,
  onNetwork,
}: {
  coins: CoinGroup[];
  networks: Record<string, HostedNetworkInfo>;
  currency: string | null;
  network: string | null;
  onCoin(currency: string): void;
  onNetwork(network: string): void;
}) {
  const { t } = useI18n();
  const chosenCoin = coins.find((coin) => coin.currency === currency) ?? null;
  return (
    <>
    <fieldset>
      <legend className="text-sm font-medium text-(--ui-muted)">{t("payment.picker.coin")}</legend>
      <div className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-4">
        {coins.map((coin) => (
          <label key={coin.currency} className={TILE}>
            <input
              type="radio"
              name="coin"
              value={coin.currency}
              checked={currency === coin.currency}
              onChange={() => onCoin(coin.currency)}
              className="sr-only"
              data-testid={`coin-${coin.currency}`}
            />
            {coin.currency}
          </label>
        ))}
      </div>
    </fieldset>

    {chosenCoin ? (
      <fieldset>
        <legend className="text-sm font-medium text-(--ui-muted)">{t("payment.picker.networkFor", { coin: chosenCoin.currency })}</legend>
        <div className="mt-2 flex flex-col gap-2">
          {chosenCoin.methods.map((method) => {
            const info = networks[method.network];
            return (
              <label key={method.network} className={ROW}>
                <input
                  type="radio"
                  name="network"
                  value={method.network}
                  checked={network === method.network}
                  onChange={() => onNetwork(method.network)}
                  className="size-5 shrink-0 accent-(--ui-accent) outline-none"
                  data-testid={`network-${method.network}`}
                />
                <span className="flex min-w-0 flex-1 flex-wrap items-baseline justify-between gap-x-3">
                  <span className="font-medium">{info?.name ?? method.network}</span>
                  <span className="text-sm text-(--ui-muted)">{method.kind === "token" ? (info?.tokenStandard || t("common.token")) : t("common.nativeCoin")}</span>
                </span>
              </label>
            );
          })}
        </div>
        <p className="mt-2 text-sm text-(--ui-muted)">{t("payment.picker.networkHint")}</p>
      </fieldset>
    ) : null}
    </>
  );
}
