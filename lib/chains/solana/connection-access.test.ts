import bs58 from "bs58";
import { describe, expect, it } from "vitest";
import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SendTransactionError,
  SolanaJSONRPCError,
  SystemProgram,
  TransactionMessage,
  type VersionedTransactionResponse,
} from "@solana/web3.js";
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { ChainError } from "@/lib/chains/types";
import { callChainAccess } from "@/lib/chains/call-access";
import { createConnectionAccess, toSolanaTransactionRecord, type SolanaRpc } from "@/lib/chains/solana/connection-access";
import { buildSolanaWatchIndex, extractSolanaDeposits } from "@/lib/chains/solana/extract-solana-deposits";
import { createSolanaAdapter } from "@/lib/chains/solana/solana-adapter";
import { identifySolanaCluster } from "@/lib/chains/solana/solana-chain";
import { createSolanaSender } from "@/lib/chains/solana/solana-sender";

/** A Connection stand-in whose every method behaves as `behaviour`; `overrides` replace single methods. */
function fakeRpc(behaviour: () => Promise<never>, overrides: Partial<SolanaRpc> = {}): SolanaRpc {
  return {
    getLatestBlockhashAndContext: behaviour,
    getBlock: behaviour,
    getSignaturesForAddress: behaviour,
    getTransaction: behaviour,
    getAccountInfo: behaviour,
    getMinimumBalanceForRentExemption: behaviour,
    getLatestBlockhash: behaviour,
    getBlockHeight: behaviour,
    sendRawTransaction: behaviour,
    getSignatureStatuses: behaviour,
    ...overrides,
  };
}

const hang = () => new Promise<never>(() => {});
const fail = async (): Promise<never> => {
  throw new TypeError("fetch failed");
};
const owner = Keypair.generate().publicKey.toBase58();

describe("Solana JSON-RPC access layer with a fake Connection", () => {
  it("a hanging node: the adapter and the sender fail with retryable errors after the deadline", async () => {
    const access = createConnectionAccess(fakeRpc(hang));
    const adapter = createSolanaAdapter({ access, watchedOwners: async () => [owner], timeoutMs: 20 });
    await expect(adapter.getTip()).rejects.toMatchObject({ name: "ChainError", retryable: true, message: expect.stringMatching(/timed out/) });
    await expect(adapter.scanTransfers({ afterHeight: 0 })).rejects.toMatchObject({ retryable: true });
    const sender = createSolanaSender({ access, timeoutMs: 20 });
    await expect(sender.getTransaction(bs58.encode(new Uint8Array(64)))).rejects.toMatchObject({ retryable: true });
  });

  it("a node that throws (network error): retryable", async () => {
    const adapter = createSolanaAdapter({ access: createConnectionAccess(fakeRpc(fail)), watchedOwners: async () => [owner] });
    const error = await adapter.scanTransfers({ afterHeight: 0 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChainError);
    expect(error).toMatchObject({ retryable: true, cause: expect.any(TypeError) });
  });

  it("a preflight refusal is final, a blockhash the node has not seen is retryable", async () => {
    const refusing = (transactionMessage: string) =>
      createConnectionAccess(
        fakeRpc(hang, {
          sendRawTransaction: async () => {
            throw new SendTransactionError({ action: "send", signature: "", transactionMessage });
          },
        }),
      );
    const wire = new Uint8Array([1, 2, 3]);
    await expect(callChainAccess("solana", "send", 1000, () => refusing("Transaction simulation failed: insufficient funds").sendTransaction(wire))).rejects.toMatchObject({
      retryable: false,
    });
    await expect(callChainAccess("solana", "send", 1000, () => refusing("Transaction simulation failed: Blockhash not found").sendTransaction(wire))).rejects.toMatchObject({
      retryable: true,
    });
  });

  it("a skipped slot has no block hash; a block not available yet is an error", async () => {
    const rpcError = (code: number) =>
      createConnectionAccess(
        fakeRpc(hang, {
          getBlock: async () => {
            throw new SolanaJSONRPCError({ code, message: "no block" });
          },
        }),
      );
    expect(await rpcError(-32007).getBlockHash(5)).toBeNull();
    expect(await rpcError(-32009).getBlockHash(5)).toBeNull();
    await expect(rpcError(-32004).getBlockHash(5)).rejects.toBeInstanceOf(SolanaJSONRPCError);
  });

  it("pages getSignaturesForAddress back to the cursor slot", async () => {
    const calls: (string | undefined)[] = [];
    // 1000 signatures in slots 5000…4001, then 500 in 4000…3501.
    const history = Array.from({ length: 1500 }, (_, i) => ({ signature: `s${i}`, slot: 5000 - i, err: i === 3 ? { InstructionError: [0, "Custom"] } : null }));
    const access = createConnectionAccess(
      fakeRpc(hang, {
        getSignaturesForAddress: async (_address, options) => {
          calls.push(options.before);
          const start = options.before === undefined ? 0 : history.findIndex((entry) => entry.signature === options.before) + 1;
          return history.slice(start, start + options.limit);
        },
      }),
    );
    const found = await access.listSignatures(owner, 3800);
    expect(calls).toEqual([undefined, "s999"]);
    expect(found).toHaveLength(1200);
    expect(found.at(-1)).toEqual({ signature: "s1199", slot: 3801, isFailed: false });
    expect(found[3]).toMatchObject({ isFailed: true });
  });

  it("reduces a v0 getTransaction answer (lookup-table keys, base58 inner data) to the record the shared code reads", () => {
    const payer = Keypair.generate().publicKey;
    const mint = Keypair.generate().publicKey;
    const source = getAssociatedTokenAddressSync(mint, payer);
    const destination = getAssociatedTokenAddressSync(mint, new PublicKey(owner));
    // The destination ATA comes from a lookup table, so it sits after the static keys.
    const table = new AddressLookupTableAccount({
      key: Keypair.generate().publicKey,
      state: { deactivationSlot: 2n ** 64n - 1n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: [destination] },
    });
    const message = new TransactionMessage({
      payerKey: payer,
      recentBlockhash: Keypair.generate().publicKey.toBase58(),
      instructions: [
        createTransferCheckedInstruction(source, mint, destination, payer, 2_500_000n, 6),
        SystemProgram.transfer({ fromPubkey: payer, toPubkey: new PublicKey(owner), lamports: 1n }),
      ],
    }).compileToV0Message([table]);
    const staticKeys = message.staticAccountKeys.map((key) => key.toBase58());
    // A program run by instruction 0 moved 77 lamports to the owner (as if by CPI).
    const innerTransfer = SystemProgram.transfer({ fromPubkey: payer, toPubkey: new PublicKey(owner), lamports: 77n });
    const response: VersionedTransactionResponse = {
      slot: 1234,
      version: 0,
      transaction: { message, signatures: ["sigA"] },
      meta: {
        err: null,
        fee: 5000,
        preBalances: [],
        postBalances: [],
        loadedAddresses: { writable: [destination], readonly: [] },
        innerInstructions: [
          {
            index: 0,
            instructions: [
              {
                programIdIndex: staticKeys.indexOf(SystemProgram.programId.toBase58()),
                accounts: [staticKeys.indexOf(payer.toBase58()), staticKeys.indexOf(owner)],
                data: bs58.encode(innerTransfer.data),
              },
            ],
          },
        ],
        preTokenBalances: [{ accountIndex: staticKeys.indexOf(source.toBase58()), mint: mint.toBase58(), owner: payer.toBase58(), uiTokenAmount: { amount: "9", decimals: 6, uiAmount: null } }],
        postTokenBalances: [],
      },
    };

    const record = toSolanaTransactionRecord("sigA", response);
    expect(record.accountKeys).toEqual([...staticKeys, destination.toBase58()]);
    expect(record.innerInstructions[0].instructions[0].data).toEqual(new Uint8Array(innerTransfer.data));

    const watch = buildSolanaWatchIndex([owner], new Map([["USDT", mint.toBase58()]]));
    const common = { network: "solana", txid: "sigA", toAddress: owner, fromAddress: payer.toBase58(), blockHeight: 1234 };
    expect(extractSolanaDeposits(record, watch)).toEqual([
      { ...common, currency: "USDT", position: 0, amountMinor: 2_500_000n },
      { ...common, currency: "SOL", position: 1000, amountMinor: 77n },
      { ...common, currency: "SOL", position: 1, amountMinor: 1n },
    ]);

    expect(toSolanaTransactionRecord("sigA", { ...response, meta: { ...response.meta!, err: { InstructionError: [0, "Custom"] } } }).isFailed).toBe(true);
    expect(toSolanaTransactionRecord("sigA", { ...response, meta: null }).isFailed).toBe(true);
  });

  it("identifies the cluster by its genesis hash", () => {
    expect(identifySolanaCluster("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d")).toEqual({ chain: "main", isProduction: true, label: "mainnet-beta" });
    expect(identifySolanaCluster("EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG")).toMatchObject({ chain: "test", isProduction: false });
    expect(identifySolanaCluster("local")).toMatchObject({ chain: "regtest", isProduction: false });
  });
});
