import { describe, expect, it } from "vitest";
import { Keypair, PublicKey, SystemProgram, TransactionMessage, type TransactionInstruction } from "@solana/web3.js";
import { createTransferCheckedInstruction, createTransferInstruction, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { buildSolanaWatchIndex, extractSolanaDeposits, instructionPosition, type SolanaDeposit } from "@/lib/chains/solana/extract-solana-deposits";
import type { SolanaCompiledInstruction, SolanaTokenBalance, SolanaTransactionRecord } from "@/lib/chains/solana/solana-access";

const payer = Keypair.generate().publicKey;
const owner = Keypair.generate().publicKey;
const mint = Keypair.generate().publicKey;
const otherMint = Keypair.generate().publicKey;
const ownerAta = getAssociatedTokenAddressSync(mint, owner);
const payerAta = getAssociatedTokenAddressSync(mint, payer);
const watch = buildSolanaWatchIndex([owner.toBase58()], new Map([["USDT", mint.toBase58()]]));

interface RecordInput {
  instructions: TransactionInstruction[];
  /** Inner instructions by outer index; their keys must appear in the outer instructions. */
  inner?: { index: number; instructions: TransactionInstruction[] }[];
  isFailed?: boolean;
  tokenBalances?: (keys: string[]) => SolanaTokenBalance[];
}

/** A transaction record as both access layers produce it, compiled from web3.js instructions. */
function recordOf(input: RecordInput): SolanaTransactionRecord {
  const message = new TransactionMessage({ payerKey: payer, recentBlockhash: Keypair.generate().publicKey.toBase58(), instructions: input.instructions }).compileToLegacyMessage();
  const accountKeys = message.staticAccountKeys.map((key) => key.toBase58());
  const compile = (instruction: TransactionInstruction): SolanaCompiledInstruction => ({
    programIdIndex: accountKeys.indexOf(instruction.programId.toBase58()),
    accountIndexes: instruction.keys.map((meta) => accountKeys.indexOf(meta.pubkey.toBase58())),
    data: instruction.data,
  });
  const balances = input.tokenBalances?.(accountKeys) ?? [];
  return {
    signature: "sig",
    slot: 42,
    isFailed: input.isFailed ?? false,
    accountKeys,
    instructions: message.compiledInstructions.map((instruction) => ({
      programIdIndex: instruction.programIdIndex,
      accountIndexes: [...instruction.accountKeyIndexes],
      data: instruction.data,
    })),
    innerInstructions: (input.inner ?? []).map((group) => ({ index: group.index, instructions: group.instructions.map(compile) })),
    preTokenBalances: balances,
    postTokenBalances: balances,
  };
}

const solTransfer = (to: PublicKey, lamports: bigint, from: PublicKey = payer) => SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports });

/** Token balances naming the payer as owner of its ATA and `mintOfDestination` as the owner ATA's mint. */
const tokenBalances =
  (mintOfDestination: PublicKey = mint) =>
  (keys: string[]): SolanaTokenBalance[] => [
    { accountIndex: keys.indexOf(payerAta.toBase58()), mint: mint.toBase58(), owner: payer.toBase58() },
    { accountIndex: keys.indexOf(ownerAta.toBase58()), mint: mintOfDestination.toBase58(), owner: owner.toBase58() },
  ];

type Expected = Pick<SolanaDeposit, "position" | "currency" | "amountMinor" | "fromAddress">;

const CASES: [label: string, input: RecordInput, expected: Expected[]][] = [
  ["a SOL transfer to the owner", { instructions: [solTransfer(owner, 5n)] }, [{ position: 0, currency: "SOL", amountMinor: 5n, fromAddress: payer.toBase58() }]],
  ["a failed transaction", { instructions: [solTransfer(owner, 5n)], isFailed: true }, []],
  ["zero lamports", { instructions: [solTransfer(owner, 0n)] }, []],
  ["lamports sent to the ATA (not a token deposit)", { instructions: [solTransfer(ownerAta, 5n)] }, []],
  [
    "a plain Transfer into the ATA: payer from the token balances",
    { instructions: [createTransferInstruction(payerAta, ownerAta, payer, 9n)], tokenBalances: tokenBalances() },
    [{ position: 0, currency: "USDT", amountMinor: 9n, fromAddress: payer.toBase58() }],
  ],
  [
    "a Transfer whose token balances are missing: payer is the signing authority",
    { instructions: [createTransferInstruction(payerAta, ownerAta, payer, 9n)] },
    [{ position: 0, currency: "USDT", amountMinor: 9n, fromAddress: payer.toBase58() }],
  ],
  [
    "TransferChecked of the watched mint",
    { instructions: [solTransfer(Keypair.generate().publicKey, 1n), createTransferCheckedInstruction(payerAta, mint, ownerAta, payer, 1_000_000n, 6)], tokenBalances: tokenBalances() },
    [{ position: 1, currency: "USDT", amountMinor: 1_000_000n, fromAddress: payer.toBase58() }],
  ],
  ["TransferChecked naming another mint", { instructions: [createTransferCheckedInstruction(payerAta, otherMint, ownerAta, payer, 1n, 6)] }, []],
  ["a destination whose token balance shows another mint", { instructions: [createTransferInstruction(payerAta, ownerAta, payer, 1n)], tokenBalances: tokenBalances(otherMint) }, []],
  ["tokens sent to the owner address instead of its ATA", { instructions: [createTransferInstruction(payerAta, owner, payer, 1n)] }, []],
  [
    "a transfer run by a program (CPI), after a top-level one",
    { instructions: [solTransfer(owner, 1n), solTransfer(Keypair.generate().publicKey, 2n)], inner: [{ index: 1, instructions: [solTransfer(owner, 3n)] }] },
    [
      { position: 0, currency: "SOL", amountMinor: 1n, fromAddress: payer.toBase58() },
      { position: 2000, currency: "SOL", amountMinor: 3n, fromAddress: payer.toBase58() },
    ],
  ],
];

describe("extractSolanaDeposits", () => {
  it.each(CASES)("%s", (_label, input, expected) => {
    expect(extractSolanaDeposits(recordOf(input), watch)).toEqual(
      expected.map((item) => ({ network: "solana", txid: "sig", toAddress: owner.toBase58(), blockHeight: 42, ...item })),
    );
  });

  it("ignores a transfer from the owner to itself", () => {
    expect(extractSolanaDeposits(recordOf({ instructions: [solTransfer(owner, 5n, owner)] }), watch)).toEqual([]);
  });

  it("reads TransferWithSeed: the derived account pays", async () => {
    const derived = await PublicKey.createWithSeed(payer, "deposit", SystemProgram.programId);
    const instruction = SystemProgram.transfer({ fromPubkey: derived, basePubkey: payer, toPubkey: owner, lamports: 11n, seed: "deposit", programId: SystemProgram.programId });
    expect(extractSolanaDeposits(recordOf({ instructions: [instruction] }), watch)).toMatchObject([{ fromAddress: derived.toBase58(), amountMinor: 11n, position: 0 }]);
  });

  it("numbers positions: top-level index, then 1000 × (outer + 1) + inner", () => {
    expect([instructionPosition(0), instructionPosition(7), instructionPosition(0, 0), instructionPosition(2, 5)]).toEqual([0, 7, 1000, 3005]);
  });

  it("watches each owner and its ATA per mint", () => {
    expect([...watch.entries()]).toEqual([
      [owner.toBase58(), { kind: "native", owner: owner.toBase58() }],
      [ownerAta.toBase58(), { kind: "token", owner: owner.toBase58(), symbol: "USDT", mint: mint.toBase58() }],
    ]);
  });
});
