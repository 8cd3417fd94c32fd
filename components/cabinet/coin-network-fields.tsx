"use client";

import { useMemo, useState } from "react";
import { Select } from "@/components/cabinet/form-controls";

/** A coin on a network (plain data from the server). */
export interface CoinNetworkOption {
  currency: string;
  network: string;
  networkName: string;
}

/** The two selects' state: the coins, the networks of the chosen coin, and the choices. */
export interface CoinNetworkChoice {
  coins: string[];
  networks: { network: string; networkName: string }[];
  coin: string;
  network: string;
  chooseCoin(value: string): void;
  setNetwork(value: string): void;
}

/**
 * Coin and network picked together: the network list follows the coin, keeping the network when
 * the new coin is carried there too, else taking the first option `prefer` accepts, else the
 * first. The first choice is the first option `prefer` accepts, else the first coin.
 */
export function useCoinNetwork<T extends CoinNetworkOption>(options: T[], prefer: (option: T) => boolean) {
  const coins = useMemo(() => [...new Set(options.map((option) => option.currency))], [options]);
  const preferred = options.find(prefer);
  const [coin, setCoin] = useState(preferred?.currency ?? coins[0] ?? "");
  const networks = options.filter((option) => option.currency === coin);
  const [network, setNetwork] = useState(preferred?.network ?? networks[0]?.network ?? "");
  const option = options.find((candidate) => candidate.currency === coin && candidate.network === network);

  const chooseCoin = (value: string) => {
    setCoin(value);
    const carried = options.filter((candidate) => candidate.currency === value);
    if (!carried.some((candidate) => candidate.network === network)) setNetwork((carried.find(prefer) ?? carried[0])?.network ?? "");
  };

  return { coins, coin, chooseCoin, networks, network, setNetwork, option };
}

/** One of the two selects: its id, form name and label, an optional hint and an optional empty first option. */
export interface PickerField {
  id: string;
  name: string;
  label: string;
  hint?: string;
  /** The text of an empty first option ("no choice"). */
  none?: string;
}

/**
 * The coin select and the network select of a choice, side by side on wider screens. With
 * `idPrefix`, they are "Coin" (`<prefix>-coin`, named currency) and "Network" (`<prefix>-network`,
 * named network); otherwise `coinField` and `networkField` say what they are.
 */
export function CoinNetworkFields({
  choice,
  className = "grid gap-4 sm:grid-cols-2",
  ...fields
}: { choice: CoinNetworkChoice; className?: string } & ({ idPrefix: string } | { coinField: PickerField; networkField: PickerField })) {
  const coinField: PickerField = "idPrefix" in fields ? { id: `${fields.idPrefix}-coin`, name: "currency", label: "Coin" } : fields.coinField;
  const networkField: PickerField = "idPrefix" in fields ? { id: `${fields.idPrefix}-network`, name: "network", label: "Network" } : fields.networkField;
  return (
    <div className={className}>
      <Select id={coinField.id} name={coinField.name} label={coinField.label} hint={coinField.hint} value={choice.coin} onChange={choice.chooseCoin}>
        {coinField.none !== undefined ? <option value="">{coinField.none}</option> : null}
        {choice.coins.map((symbol) => (
          <option key={symbol} value={symbol}>
            {symbol}
          </option>
        ))}
      </Select>
      <Select id={networkField.id} name={networkField.name} label={networkField.label} hint={networkField.hint} value={choice.network} onChange={choice.setNetwork}>
        {networkField.none !== undefined ? <option value="">{networkField.none}</option> : null}
        {choice.networks.map((candidate) => (
          <option key={candidate.network} value={candidate.network}>
            {candidate.networkName}
          </option>
        ))}
      </Select>
    </div>
  );
}
