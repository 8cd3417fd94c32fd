"use client";

import { useState, type FormEvent } from "react";
import { CoinNetworkFields, useCoinNetwork } from "@/components/cabinet/coin-network-fields";
import { Alert, Field } from "@/components/cabinet/form-controls";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { QrCodeImage } from "./qr-code";
import { networkDisplayName } from "@/lib/catalogue";

/** A coin on a network this service receives (plain data from the server). */
export interface WalletAssetOption {
  currency: string;
  network: string;
  networkName: string;
}

interface CreatedWallet {
  uuid: string;
  order_id: string;
  currency: string;
  network: string;
  address: string;
  address_qr_code: string;
}

/**
 * A static wallet (POST /v1/wallet): a permanent deposit address for one customer in one coin
 * on one network. A repeat of the same customer, coin and network answers the same wallet.
 */
export function CreateStaticWalletForm({ options }: { options: WalletAssetOption[] }) {
  const { run, isPending, dialog } = useCabinetAction();
  // USDT first when it is received; a new coin keeps the network if it is carried there, else takes its first.
  const choice = useCoinNetwork(options, (option) => option.currency === "USDT");
  const { coin, network } = choice;
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedWallet | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setCreated(null);
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const result = await run("static_wallet.create", {
      currency: coin,
      network,
      order_id: text("order_id"),
      ...(text("url_callback") ? { url_callback: text("url_callback") } : {}),
    });
    if (!result) return;
    if (!result.ok) {
      setError(result.message);
      return;
    }
    setCreated(result.result as CreatedWallet);
    formElement.reset();
  };

  if (options.length === 0) return <Alert tone="warn">No coin can be received on this service right now: every network is off.</Alert>;

  return (
    <div className="flex flex-col gap-4">
      {dialog}
      {created ? (
        <div className="flex flex-col gap-3 rounded-xl border border-(--ui-success-border) bg-(--ui-success-bg) p-4">
          <p role="status" className="font-medium text-(--ui-success)">
            Wallet for {created.order_id}: send {created.currency} on {networkDisplayName(created.network)} to
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <span className="min-w-0 flex-1 font-mono text-sm break-all">{created.address}</span>
            <CopyButton value={created.address} label="Copy address" accessibleName="Copy address of the new wallet" copiedText="Copied" announcement="Address copied" failure="Select the address and copy it" />
          </div>
          <QrCodeImage image={created.address_qr_code} alt={`QR code of the ${created.currency} address for ${created.order_id}`} />
        </div>
      ) : null}
      <form onSubmit={submit} className="flex max-w-2xl flex-col gap-4" noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <CoinNetworkFields idPrefix="wallet" choice={choice} />
        <Field id="wallet-order-id" name="order_id" label="Order id" required maxLength={128} autoComplete="off" hint="Your customer's reference: the same one gives the same wallet." />
        <Field id="wallet-callback" name="url_callback" type="url" label="Callback URL" hint="Deposit webhooks of this wallet also go here (optional)." />
        <div>
          <Button type="submit" disabled={isPending}>
            {isPending ? "Creating…" : "Create wallet"}
          </Button>
        </div>
      </form>
    </div>
  );
}


/**
 * Block a wallet (asked twice: later deposits are held, never credited, and it cannot be undone)
 * and, once blocked, send what it holds back to an address (with a fresh code: it sends money out).
 */
export function StaticWalletActions({
  uuid,
  orderId,
  status,
  held,
  currency,
  canBlock,
  canRefund,
}: {
  uuid: string;
  orderId: string;
  status: string;
  /** Deposits after the block waiting for a refund (decimal string). */
  held: string;
  currency: string;
  canBlock: boolean;
  canRefund: boolean;
}) {
  const { run, isPending, dialog } = useCabinetAction();
  const [isConfirming, setIsConfirming] = useState(false);
  const [message, setMessage] = useState<{ tone: "danger" | "success"; text: string } | null>(null);

  const block = async () => {
    setMessage(null);
    const result = await run("static_wallet.block", { uuid });
    setIsConfirming(false);
    if (result && !result.ok) setMessage({ tone: "danger", text: result.message });
  };
  const refund = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setMessage(null);
    const address = String(new FormData(event.currentTarget).get("address") ?? "").trim();
    const result = await run("static_wallet.refund_blocked", { uuid, address });
    if (!result) return;
    if (!result.ok) setMessage({ tone: "danger", text: result.message });
    else {
      const refunds = (result.result as { refunds: { uuid: string; amount: string }[] }).refunds;
      const last = refunds[refunds.length - 1];
      setMessage({ tone: "success", text: last ? `Refund of ${last.amount} ${currency} created; it goes out from the hot wallet.` : "Refund created." });
    }
  };

  return (
    <div className="flex min-w-48 flex-col gap-2">
      {dialog}
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      {status === "active" && canBlock ? (
        isConfirming ? (
          <div className="flex flex-col gap-2 rounded-lg border border-(--ui-warn-border) bg-(--ui-warn-bg) p-2 text-sm text-(--ui-warn)">
            <p>Block it? Later deposits are held for a refund, never credited. This cannot be undone.</p>
            <div className="flex flex-wrap gap-2">
              <Button size="small" disabled={isPending} onClick={() => void block()}>
                {isPending ? "Blocking…" : "Confirm block"}
                <span className="sr-only"> of wallet {orderId}</span>
              </Button>
              <Button variant="secondary" size="small" disabled={isPending} onClick={() => setIsConfirming(false)}>
                Keep active
              </Button>
            </div>
          </div>
        ) : (
          <Button variant="secondary" size="small" onClick={() => setIsConfirming(true)}>
            Block<span className="sr-only"> wallet {orderId}</span>
          </Button>
        )
      ) : null}
      {status === "blocked" && canRefund && held !== "0" ? (
        <form onSubmit={refund} className="flex flex-col gap-2" aria-label={`Refund the held deposits of ${orderId}`}>
          <Field id={`refund-address-${uuid}`} name="address" label="Refund address" required autoComplete="off" spellCheck={false} hint={`${held} ${currency} held; the network fee is taken from it.`} />
          <Button type="submit" size="small" disabled={isPending}>
            {isPending ? "Refunding…" : "Refund held deposits"}
          </Button>
        </form>
      ) : null}
    </div>
  );
}
