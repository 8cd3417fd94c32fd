import { CopyButton } from "@/components/ui/copy-button";

/** What to send and where: the exact amount, the network, the address and its QR code. */
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
}) {
  return (
    <>
      <section aria-labelledby="amount-heading" className="rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-5 shadow-sm">
        <h2 id="amount-heading" tabIndex={-1} className="text-sm font-medium text-(--ui-muted) outline-none">
          {isRemainder ? "Send the rest — exactly" : "Send exactly"}
        </h2>
        <div className="mt-1 flex items-start justify-between gap-3">
          <p className={`min-w-0 leading-tight font-bold tabular-nums wrap-anywhere ${amount.length > 12 ? "text-2xl sm:text-3xl" : "text-3xl sm:text-4xl"}`}>
            <span data-testid="payer-amount">{amount}</span> <span>{coin}</span>
          </p>
          <CopyButton value={amount} description="amount" className="mt-0.5" />
        </div>
        <p className="mt-2 text-base font-medium">{networkLabel}</p>
        <p className="mt-1 text-sm text-(--ui-muted)">
          {isRemainder ? `Received ${amountPaid} of ${payerAmount} ${coin} · ` : ""}Price <span className="font-medium text-(--ui-fg)">{price}</span>
        </p>
      </section>

      <section aria-labelledby="address-heading" className="rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-5 shadow-sm">
        <h2 id="address-heading" className="text-sm font-medium text-(--ui-muted)">
          Deposit address
        </h2>
        {qrCode ? (
          // A data: URI from the API; next/image adds nothing for an inline image.
          // eslint-disable-next-line @next/next/no-img-element
          <img
            src={qrCode}
            alt={`QR code of the ${coin} deposit address ${networkLabel}`}
            width={240}
            height={240}
            className="mx-auto mt-3 size-52 rounded-xl bg-white p-2 [image-rendering:pixelated] sm:size-60"
          />
        ) : null}
        <p data-testid="deposit-address" className="mt-4 rounded-lg bg-(--ui-subtle) px-3 py-2.5 font-mono text-[0.95rem] leading-relaxed break-all select-all">
          {address}
        </p>
        <div className="mt-3 flex justify-end">
          <CopyButton value={address} description="address" />
        </div>
        <p className="mt-4 border-t border-(--ui-border) pt-3 text-sm text-(--ui-muted)">
          Send only <strong className="text-(--ui-fg)">{coin}</strong> {networkLabel} to this address. Funds sent in another coin or over another network are lost.
        </p>
      </section>
    </>
  );
}
