"use client";

import { useI18n } from "@/components/i18n/i18n-provider";
import { ButtonLink } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

/**
 * What to send and where: the exact amount, the network, the address and its QR code, and a link
 * that opens a wallet on this device with both filled in where the network has a payment URI.
 */
export function PaymentInstructions({
  amount,
  coin,
  networkLabel,
  price,
  address,
  qrCode,
  isRemainder,
  amountPaid,
  payerAmount,
  walletUri,
}: {
  /** The amount to send now: the full amount, or what is still due after a partial payment. */
  amount: string;
  coin: string;
  /** "on Tron (TRC-20)" */
  networkLabel: string;
  /** "25.00 USD" */
  price: string;
  address: string;
  qrCode: string;
  isRemainder: boolean;
  amountPaid: string;
  payerAmount: string;
  /** `bitcoin:…?amount=…` and the like; null where the network has no agreed scheme (Tron). */
  walletUri: string | null;
}) {
  const { t, amount: formatAmount } = useI18n();
  return (
    <>
      <section aria-labelledby="amount-heading" className="rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-5 shadow-sm">
        <h2 id="amount-heading" tabIndex={-1} className="text-sm font-medium text-(--ui-muted) outline-none">
          {isRemainder ? t("payment.instructions.sendRest") : t("payment.instructions.sendExactly")}
        </h2>
        <div className="mt-1 flex items-start justify-between gap-3">
          <p className={`min-w-0 leading-tight font-bold tabular-nums wrap-anywhere ${amount.length > 12 ? "text-2xl sm:text-3xl" : "text-3xl sm:text-4xl"}`}>
            <span data-testid="payer-amount" data-amount={amount}>{formatAmount(amount)}</span> <span>{coin}</span>
          </p>
          <CopyButton value={amount} label={t("common.copy")} accessibleName={t("common.copyAmount")} copiedText={t("common.copied")} announcement={t("common.amountCopied")} failure={t("common.copyFailed")} className="mt-0.5" />
        </div>
        <p className="mt-2 text-base font-medium">{networkLabel}</p>
        <p className="mt-1 text-sm text-(--ui-muted)">
          {isRemainder ? `${t("payment.instructions.received", { paid: formatAmount(amountPaid), due: formatAmount(payerAmount), coin })} · ` : ""}
          {t("payment.instructions.price")} <span className="font-medium text-(--ui-fg)">{price}</span>
        </p>
      </section>

      <section aria-labelledby="address-heading" className="rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-5 shadow-sm">
        <h2 id="address-heading" className="text-sm font-medium text-(--ui-muted)">
          {t("payment.instructions.depositAddress")}
        </h2>
        {qrCode ? (
          // A data: URI from the API; next/image adds nothing for an inline image.
          // eslint-disable-next-line @next/next/no-img-element
          <img
            src={qrCode}
            alt={t("payment.instructions.qrAlt", { coin, network: networkLabel })}
            width={240}
            height={240}
            className="mx-auto mt-3 size-52 rounded-xl bg-white p-2 [image-rendering:pixelated] sm:size-60"
          />
        ) : null}
        <p data-testid="deposit-address" className="mt-4 rounded-lg bg-(--ui-subtle) px-3 py-2.5 font-mono text-[0.95rem] leading-relaxed break-all select-all">
          {address}
        </p>
        <div className="mt-3 flex flex-wrap items-center justify-end gap-3">
          {walletUri ? (
            <ButtonLink href={walletUri} variant="secondary" className="mr-auto" data-testid="open-in-wallet">
              {t("payment.instructions.openInWallet")}
            </ButtonLink>
          ) : null}
          <CopyButton value={address} label={t("common.copy")} accessibleName={t("common.copyAddress")} copiedText={t("common.copied")} announcement={t("common.addressCopied")} failure={t("common.copyFailed")} />
        </div>
        {walletUri ? <p className="mt-2 text-sm text-(--ui-muted)">{t("payment.instructions.walletHint")}</p> : null}
        <p className="mt-4 border-t border-(--ui-border) pt-3 text-sm text-(--ui-muted)">
          {t("payment.instructions.warning", { coin, network: networkLabel })}
        </p>
      </section>
    </>
  );
}
