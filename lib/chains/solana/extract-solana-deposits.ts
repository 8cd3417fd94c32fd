import { PublicKey } from "@solana/web3.js";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import type { ObservedTransfer } from "@/lib/chains/types";
import type { SolanaCompiledInstruction, SolanaTransactionRecord } from "@/lib/chains/solana/solana-access";
import { SOL_SYMBOL, SOLANA_NETWORK, SYSTEM_PROGRAM_ID, TOKEN_PROGRAM_ID } from "@/lib/chains/solana/solana-assets";

/** What a watched address stands for: the deposit owner itself, or its ATA for one mint. */
export type SolanaWatchTarget =
  | { kind: "native"; owner: string }
  | { kind: "token"; owner: string; symbol: string; mint: string };

/** Watched address (owner or ATA, base58) → what it stands for. */
export type SolanaWatchIndex = ReadonlyMap<string, SolanaWatchTarget>;

/**
 * The addresses to watch for a set of deposit owners: each owner (SOL) and, per mint, the
 * owner's Associated Token Account. networks.md §3: SPL tokens arrive at the ATA, not at the
 * owner address, so watching only the owner would miss every token deposit.
 */
export function buildSolanaWatchIndex(owners: Iterable<string>, mints: ReadonlyMap<string, string>): SolanaWatchIndex {
  const index = new Map<string, SolanaWatchTarget>();
  for (const owner of owners) {
    index.set(owner, { kind: "native", owner });
    const ownerKey = new PublicKey(owner);
    for (const [symbol, mint] of mints) {
      // Off-curve owners (PDAs) are allowed: their ATAs exist like any other.
      const ata = getAssociatedTokenAddressSync(new PublicKey(mint), ownerKey, true).toBase58();
      index.set(ata, { kind: "token", owner, symbol, mint });
    }
  }
  return index;
}

/** A deposit found in one transaction; the adapter adds the block hash. */
export type SolanaDeposit = Omit<ObservedTransfer, "blockHash">;

/**
 * Position of an instruction within its transaction: the instruction index for top-level
 * instructions, and 1000 × (outer index + 1) + inner index for instructions a program ran (CPI).
 * A message holds far fewer than 1000 instructions and the runtime caps the CPI trace at 64, so
 * positions never collide, and they stay the same every time the transaction is read.
 */
export function instructionPosition(outerIndex: number, innerIndex?: number): number {
  return innerIndex === undefined ? outerIndex : 1000 * (outerIndex + 1) + innerIndex;
}

function readU64(data: Uint8Array, offset: number): bigint | null {
  if (data.length < offset + 8) return null;
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
}

function readU32(data: Uint8Array, offset: number): number | null {
  if (data.length < offset + 4) return null;
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(offset, true);
}

/** A lamport or token movement decoded from one instruction. */
interface DecodedTransfer {
  kind: "native" | "token";
  source: string;
  destination: string;
  /** Signer of a token transfer (owner or delegate of the source account). */
  authority: string | null;
  /** Mint named by `TransferChecked`; plain `Transfer` does not name one. */
  mint: string | null;
  sourceIndex: number;
  amount: bigint;
}

// System program instruction tags (u32 LE) and SPL Token tags (u8).
const SYSTEM_TRANSFER = 2;
const SYSTEM_TRANSFER_WITH_SEED = 11;
const TOKEN_TRANSFER = 3;
const TOKEN_TRANSFER_CHECKED = 12;

function decodeTransfer(instruction: SolanaCompiledInstruction, accountKeys: readonly string[]): DecodedTransfer | null {
  const programId = accountKeys[instruction.programIdIndex];
  const { data, accountIndexes } = instruction;
  const key = (position: number): string | null => {
    const index = accountIndexes[position];
    return index === undefined ? null : (accountKeys[index] ?? null);
  };

  if (programId === SYSTEM_PROGRAM_ID) {
    const tag = readU32(data, 0);
    const amount = readU64(data, 4);
    if (amount === null) return null;
    // Transfer: [from, to]. TransferWithSeed: [from (derived), base, to].
    const layout = tag === SYSTEM_TRANSFER ? { from: 0, to: 1 } : tag === SYSTEM_TRANSFER_WITH_SEED ? { from: 0, to: 2 } : null;
    if (!layout) return null;
    const source = key(layout.from);
    const destination = key(layout.to);
    if (!source || !destination) return null;
    return { kind: "native", source, destination, authority: null, mint: null, sourceIndex: accountIndexes[layout.from], amount };
  }

  if (programId === TOKEN_PROGRAM_ID) {
    const tag = data[0];
    const amount = readU64(data, 1);
    if (amount === null) return null;
    // Transfer: [source, destination, authority]. TransferChecked: [source, mint, destination, authority].
    const layout =
      tag === TOKEN_TRANSFER
        ? { source: 0, mint: null, destination: 1, authority: 2 }
        : tag === TOKEN_TRANSFER_CHECKED
          ? { source: 0, mint: 1, destination: 2, authority: 3 }
          : null;
    if (!layout) return null;
    const source = key(layout.source);
    const destination = key(layout.destination);
    if (!source || !destination) return null;
    return {
      kind: "token",
      source,
      destination,
      authority: key(layout.authority),
      mint: layout.mint === null ? null : key(layout.mint),
      sourceIndex: accountIndexes[layout.source],
      amount,
    };
  }
  return null;
}

/** Every instruction of the transaction with its position, in execution order. */
function listInstructions(record: SolanaTransactionRecord): { position: number; instruction: SolanaCompiledInstruction }[] {
  const innerByOuter = new Map(record.innerInstructions.map((group) => [group.index, group.instructions]));
  return record.instructions.flatMap((instruction, outerIndex) => [
    { position: instructionPosition(outerIndex), instruction },
    ...(innerByOuter.get(outerIndex) ?? []).map((inner, innerIndex) => ({ position: instructionPosition(outerIndex, innerIndex), instruction: inner })),
  ]);
}

/**
 * The deposits in one transaction: system transfers of lamports to a watched owner, and SPL
 * `Transfer`/`TransferChecked` into a watched owner's ATA. A failed transaction moved nothing;
 * a transfer to oneself or of zero changes no balance; both are skipped.
 */
export function extractSolanaDeposits(record: SolanaTransactionRecord, watch: SolanaWatchIndex): SolanaDeposit[] {
  if (record.isFailed) return [];
  const tokenAccounts = [...record.preTokenBalances, ...record.postTokenBalances];
  const tokenAccountOf = (accountIndex: number) => tokenAccounts.find((balance) => balance.accountIndex === accountIndex);

  const deposits: SolanaDeposit[] = [];
  for (const { position, instruction } of listInstructions(record)) {
    const transfer = decodeTransfer(instruction, record.accountKeys);
    if (!transfer || transfer.amount === 0n || transfer.source === transfer.destination) continue;
    const target = watch.get(transfer.destination);
    if (!target || target.kind !== transfer.kind) continue;

    let fromAddress = transfer.source;
    if (target.kind === "token") {
      if (transfer.mint !== null && transfer.mint !== target.mint) continue;
      // The ATA address already fixes the mint; the node's token balances are a second check.
      const destinationIndex = record.accountKeys.indexOf(transfer.destination);
      const destinationState = tokenAccountOf(destinationIndex);
      if (destinationState && destinationState.mint !== target.mint) continue;
      // The payer is the owner of the source token account, not the token account itself.
      fromAddress = tokenAccountOf(transfer.sourceIndex)?.owner ?? transfer.authority ?? transfer.source;
    }
    deposits.push({
      network: SOLANA_NETWORK,
      currency: target.kind === "native" ? SOL_SYMBOL : target.symbol,
      txid: record.signature,
      position,
      toAddress: target.owner,
      fromAddress,
      amountMinor: transfer.amount,
      blockHeight: record.slot,
    });
  }
  return deposits;
}
