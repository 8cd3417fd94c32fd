"use client";

import { useState, type FormEvent } from "react";
import { CoinNetworkFields, useCoinNetwork } from "@/components/cabinet/coin-network-fields";
import { Alert, Field, INPUT_CLASS } from "@/components/cabinet/form-controls";
import { Amount } from "@/components/cabinet/page-kit";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { QrCodeImage } from "./qr-code";
import { networkDisplayName } from "@/lib/catalogue";

/** An asset a payout link may carry, with the balance it reserves from (plain data from the server). */
export interface PayoutLinkAssetOption {
  currency: string;
  network: string;
  networkName: string;
  /** The payout fee the recipient bears; null where no rate answered. */
  fee: string | null;
  available: string;
}

interface IssuedLink {
  link_id: string;
  amount: string;
  currency: string;
  network: string;
  title: string;
  claim_url: string;
  claim_qr_code: string;
}

/** The claim URL of a link just made: shown once (only its token's hash is stored), with its QR code. */
function NewClaimUrl({ issued, onDone }: { issued: IssuedLink; onDone(): void }) {
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-(--ui-warn-border) bg-(--ui-warn-bg) p-4">
      <p role="status" className="font-medium text-(--ui-warn)">
        Payout link created. Copy the claim URL now: it is not shown again.
      </p>
      <p className="text-sm">
        {issued.title ? <>“{issued.title}”: </> : null}
        <Amount value={issued.amount} currency={issued.currency} /> on {networkDisplayName(issued.network)}, reserved from your balance until it is claimed, cancelled or expires.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 flex-1 font-mono text-sm break-all" data-testid="claim-url">
          {issued.claim_url}
        </span>
        <CopyButton value={issued.claim_url} label="Copy claim URL" accessibleName="Copy claim URL" copiedText="Copied" announcement="Claim URL copied" failure="Select the claim URL and copy it" />
      </div>
      {issued.claim_qr_code ? <QrCodeImage image={issued.claim_qr_code} alt="QR code of the claim URL" size={200} /> : null}
      <div>
        <Button variant="secondary" onClick={onDone}>
          I have stored it
        </Button>
      </div>
    </div>
  );
}

/**
 * A new payout link (POST /v1/payout/link): an amount of a coin reserved from the balance for
 * whoever opens the claim URL and names an address; the recipient bears the payout fee. Asks for a
 * fresh code (payout_link.create is sensitive).
 */
export function CreatePayoutLinkForm({ options }: { options: PayoutLinkAssetOption[] }) {
  const { run, isPending, dialog } = useCabinetAction();
  // The first choice, and the network a new coin falls back to, is one the balance holds some of.
  const choice = useCoinNetwork(options, (candidate) => candidate.available !== "0");
  const { coin, network, option } = choice;
  const [error, setError] = useState<string | null>(null);
  const [issued, setIssued] = useState<IssuedLink | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const optional = (name: string) => (text(name) ? { [name]: text(name) } : {});
    const hours = text("expires_in_hours");
    const input = {
      currency: coin,
      network,
      amount: text("amount"),
      ...optional("title"),
      ...optional("note"),
      ...optional("reference"),
      ...optional("email"),
      // A number as the API takes it; the service clamps it to 1–720.
      ...(hours ? { expires_in_hours: Number(hours) } : {}),
    };
    const result = await run("payout_link.create", input);
    if (!result) return;
    if (!result.ok) {
      setError(result.message);
      return;
    }
    setIssued(result.result as IssuedLink);
    formElement.reset();
  };

  if (options.length === 0) {
    return <Alert tone="warn">No coin can be paid out on this service right now: every network is off or without an exchange rate.</Alert>;
  }

  return (
    <div className="flex flex-col gap-4">
      {dialog}
      {issued ? <NewClaimUrl issued={issued} onDone={() => setIssued(null)} /> : null}
      <form onSubmit={submit} className="flex max-w-2xl flex-col gap-4" noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <CoinNetworkFields idPrefix="plink" choice={choice} />
        {option ? (
          <p className="text-sm">
            Available: <Amount value={option.available} currency={option.currency} />
            {option.fee !== null ? (
              <span className="text-(--ui-muted)">
                {" "}
                · the recipient bears the payout fee of <Amount value={option.fee} currency={option.currency} />
              </span>
            ) : null}
          </p>
        ) : null}
        <Field id="plink-amount" name="amount" label="Amount" required inputMode="decimal" autoComplete="off" hint="Reserved from your available balance now." />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="plink-title" name="title" label="Title" maxLength={200} hint="Shown to the recipient (optional)." />
          <Field id="plink-reference" name="reference" label="Reference" maxLength={128} autoComplete="off" hint="Your unique reference (optional)." />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="plink-note" className="text-sm font-medium">
            Note
          </label>
          <textarea id="plink-note" name="note" rows={2} maxLength={1000} className={INPUT_CLASS} aria-describedby="plink-note-hint" />
          <p id="plink-note-hint" className="text-sm text-(--ui-muted)">
            A message for the recipient (optional).
          </p>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="plink-email" name="email" type="email" label="Recipient e-mail" autoComplete="off" hint="The claim URL is e-mailed there when e-mail is set up (optional)." />
          <Field id="plink-hours" name="expires_in_hours" type="number" min={1} max={720} step={1} defaultValue={24} label="Expires in hours" hint="1 to 720; the reserve returns when it expires." />
        </div>
        <div>
          <Button type="submit" disabled={isPending}>
            {isPending ? "Creating…" : "Create payout link"}
          </Button>
        </div>
      </form>
    </div>
  );
}

/** Cancels a funded link: its reserve returns to the balance (a claim that won first stays claimed). */
export function CancelPayoutLinkButton({ linkId, name }: { linkId: string; name: string }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [message, setMessage] = useState<{ tone: "danger" | "success"; text: string } | null>(null);
  const cancel = async () => {
    setMessage(null);
    const result = await run("payout_link.cancel", { link_id: linkId });
    if (!result) return;
    if (!result.ok) setMessage({ tone: "danger", text: result.message });
    // spec: a concurrent claim wins over cancel — the answer is the claimed link.
    else if ((result.result as { status: string }).status === "claimed") setMessage({ tone: "success", text: "It was claimed first; nothing was cancelled." });
  };
  return (
    <div className="flex flex-col gap-1">
      {dialog}
      <Button variant="secondary" size="small" disabled={isPending} onClick={() => void cancel()}>
        {isPending ? "Cancelling…" : "Cancel"}
        <span className="sr-only"> payout link {name}</span>
      </Button>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </div>
  );
}
