"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Alert, Field } from "@/components/cabinet/form-controls";
import { Amount, DataTable, EmptyState, ShortId, Time } from "@/components/cabinet/page-kit";
import { Button } from "@/components/ui/button";
import { TEXT_LINK } from "@/components/ui/theme";
import { parseAmount } from "@/lib/domain/money/amount";
import type { PersonalWalletRow } from "@/lib/services/payouts/list-personal-wallet-rows";
import { AssetSelects, RowRemoveButton, SelectField, useAssetChoice, useSettingsAction, type AssetChoiceOption } from "./settings-form-kit";

/** A registered personal wallet, as the settings page reads it. */
export type PersonalWalletItem = PersonalWalletRow;

const keyOf = (wallet: { currency: string; network: string }) => `${wallet.currency}:${wallet.network}`;

/** A fresh reference per transfer form: a repeated submission of the same form is the same transfer. */
function newReference(): string {
  // getRandomValues, not randomUUID: the latter exists only on secure origins (HTTPS or localhost).
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The store's own wallets, one per coin and network: registering, changing or removing one asks for
 * a fresh code, and a changed address waits out the payout freeze before it receives anything.
 */
export function PersonalWalletList({ wallets, options, canEdit }: { wallets: PersonalWalletItem[]; options: AssetChoiceOption[]; canEdit: boolean }) {
  const removal = useSettingsAction();
  const save = useSettingsAction();
  const choice = useAssetChoice(options);

  const remove = (wallet: PersonalWalletItem) =>
    void removal.submit("personal_wallet.remove", { currency: wallet.currency, network: wallet.network }, `Removed the ${wallet.currency} wallet on ${wallet.networkName}.`);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const result = await save.submit("personal_wallet.save", { currency: choice.coin, network: choice.network, address: text("address"), label: text("label") }, (wallet) => {
      const saved = wallet as { currency: string; usable_from: string };
      return new Date(saved.usable_from) > new Date() ? `Saved your ${saved.currency} wallet. Transfers to it start after the payout freeze (see “Transfers from”).` : `Saved your ${saved.currency} wallet.`;
    });
    if (result?.ok) formElement.reset();
  };

  return (
    <div className="flex flex-col gap-6">
      {removal.dialog}
      {save.dialog}
      {wallets.length === 0 ? (
        <EmptyState title="No personal wallet">{canEdit ? "Register your own address for a coin below; then money can be transferred to it." : "An owner or admin can register one."}</EmptyState>
      ) : (
        <DataTable caption="Personal wallets" headers={["Coin", "Network", "Address", "Label", "Transfers from", "Available", canEdit ? "Actions" : ""]}>
          {wallets.map((wallet) => (
            <tr key={keyOf(wallet)}>
              <td className="font-medium">{wallet.currency}</td>
              <td>{wallet.networkName}</td>
              <td>
                <ShortId value={wallet.address} />
              </td>
              <td className="break-words">{wallet.label || <span className="text-(--ui-muted)">—</span>}</td>
              <td className="whitespace-nowrap">{wallet.isUsable ? <span className="text-(--ui-muted)">Now</span> : <Time iso={wallet.usableFrom} />}</td>
              <td>
                <Amount value={wallet.available} currency={wallet.currency} />
              </td>
              <td>
                <RowRemoveButton canEdit={canEdit} pending={removal.isPending} onClick={() => remove(wallet)} what={`personal wallet for ${wallet.currency} on ${wallet.networkName}`} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {removal.message}

      {canEdit ? (
        options.length === 0 ? (
          <Alert tone="warn">No coin can be paid out on this service right now, so no wallet can be registered.</Alert>
        ) : (
          <form onSubmit={submit} className="flex max-w-2xl flex-col gap-4" aria-labelledby="personal-wallet-form-title" noValidate>
            <h3 id="personal-wallet-form-title" className="font-semibold">
              Register or change a wallet
            </h3>
            <AssetSelects idPrefix="personal-wallet" choice={choice} />
            <Field
              id="personal-wallet-address"
              name="address"
              label="Address"
              required
              autoComplete="off"
              spellCheck={false}
              hint={`Your own ${choice.coin} address on ${choice.option?.networkName ?? choice.network}. It replaces the wallet registered for this coin and network.`}
            />
            <Field id="personal-wallet-label" name="label" label="Label" maxLength={100} autoComplete="off" hint="A name for you, such as “cold storage” (optional)." />
            {save.message}
            <div>
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving…" : "Save personal wallet"}
              </Button>
            </div>
          </form>
        )
      ) : null}
    </div>
  );
}

/**
 * A transfer to a registered personal wallet: a manual payout of the amount to it, which another
 * user approves before it goes out. Asks for a fresh code.
 */
export function PersonalWalletTransferForm({ wallets }: { wallets: PersonalWalletItem[] }) {
  const { submit, isPending, dialog, message } = useSettingsAction();
  const [selected, setSelected] = useState(() => keyOf(wallets.find((wallet) => wallet.isUsable && wallet.available !== "0") ?? wallets[0] ?? { currency: "", network: "" }));
  const [amount, setAmount] = useState("");
  const [reference, setReference] = useState(newReference);
  const [created, setCreated] = useState<{ uuid: string; amount: string; currency: string } | null>(null);
  // A wallet removed meanwhile (the list refreshes after each change) falls back to the first one.
  const wallet = wallets.find((candidate) => keyOf(candidate) === selected) ?? wallets[0];
  const requested = wallet ? parseAmount(amount.trim(), wallet.decimals) : null;
  const available = wallet ? (parseAmount(wallet.available, wallet.decimals) ?? 0n) : 0n;
  const isOverAvailable = requested !== null && requested > available;

  if (wallets.length === 0) return <p className="text-sm text-(--ui-muted)">Register a personal wallet first.</p>;

  const send = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setCreated(null);
    if (!wallet) return;
    const result = await submit("personal_wallet.transfer", { currency: wallet.currency, network: wallet.network, amount: amount.trim(), reference }, "Transfer created. It waits for another user's approval before it goes out.");
    if (result?.ok) {
      const payout = result.result as { uuid: string; amount: string; currency: string };
      setCreated(payout);
      setAmount("");
      setReference(newReference());
    }
  };

  return (
    <>
      {dialog}
      <form onSubmit={send} className="flex max-w-2xl flex-col gap-4" aria-labelledby="transfer-form-title" noValidate>
        <h3 id="transfer-form-title" className="font-semibold">
          Transfer to a personal wallet
        </h3>
        <SelectField
          id="transfer-wallet"
          label="Wallet"
          value={wallet ? keyOf(wallet) : ""}
          onChange={(value) => {
            setSelected(value);
            setReference(newReference());
          }}
        >
          {wallets.map((candidate) => (
            <option key={keyOf(candidate)} value={keyOf(candidate)}>
              {candidate.currency} on {candidate.networkName}
              {candidate.label ? ` — ${candidate.label}` : ""}
            </option>
          ))}
        </SelectField>
        {wallet ? (
          <p className="text-sm" id="transfer-available">
            Available: <Amount value={wallet.available} currency={wallet.currency} />
            <span className="text-(--ui-muted)"> on {wallet.networkName}</span>
            {wallet.isUsable ? null : (
              <span className="block text-(--ui-warn)">
                This wallet was registered recently: transfers start at <Time iso={wallet.usableFrom} />.
              </span>
            )}
          </p>
        ) : null}
        <Field
          id="transfer-amount"
          name="amount"
          label="Amount"
          required
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(event) => {
            setAmount(event.target.value);
            setReference(newReference());
          }}
          error={isOverAvailable ? "More than the available balance." : null}
          hint={`In ${wallet?.currency ?? ""}, at most ${wallet?.decimals ?? 0} decimals. The payout fee follows your payout fee setting.`}
        />
        {message}
        {created ? (
          <p className="text-sm">
            <Link href={`/cabinet/payouts/${created.uuid}`} className={`${TEXT_LINK}`}>
              See the transfer of {created.amount} {created.currency}
            </Link>
          </p>
        ) : null}
        <div>
          <Button type="submit" disabled={isPending || !wallet}>
            {isPending ? "Transferring…" : "Transfer"}
          </Button>
        </div>
      </form>
    </>
  );
}
