/** A transfer to one of the service's addresses, as a chain reports it. Amounts in on-chain minor units. */
export interface ObservedTransfer {
  network: string;
  /** Settlement symbol (native coin or token). */
  currency: string;
  txid: string;
  /** Output index (UTXO) or log/instruction index: with txid, identifies the transfer. */
  position: number;
  toAddress: string;
  /** Empty where the family does not know a single payer (UTXO). */
  fromAddress: string;
  amountMinor: bigint;
  /** Null while in the mempool. */
  blockHeight: number | null;
  blockHash: string | null;
}

export interface ChainTip {
  height: number;
  hash: string;
}

/** What a family can and cannot do; services ask this instead of naming networks. */
export interface ChainCapabilities {
  hasMemo: boolean;
  knowsPayerAddress: boolean;
}

/**
 * One network's chain, real or sandbox. Adapters exchange plain data and never touch the
 * service's business tables; watchers (lib/jobs/handlers) do that.
 */
export interface ChainAdapter {
  network: string;
  source: "sandbox" | "rpc";
  capabilities: ChainCapabilities;
  getTip(): Promise<ChainTip>;
  /**
   * Transfers of the network's catalogue assets in blocks above `afterHeight` up to the tip,
   * and those still in the mempool. The watcher keeps those to the service's addresses: an
   * adapter need not know them (thousands of live invoices would make every scan heavy).
   */
  scanTransfers(input: { afterHeight: number }): Promise<ObservedTransfer[]>;
  /** The hash of the block at a height, or null when there is none (reorganisation checks). */
  getBlockHash(height: number): Promise<string | null>;
}
