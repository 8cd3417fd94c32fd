import { Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import {
  AccountLayout,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { address } from "@solana/kit";
import type { LiteSvmChain } from "@/lib/chains/solana/testing/litesvm-access";

// SPL test tokens on litesvm: no token mint ships with litesvm, so the Solana tests deploy their own.

/**
 * Creates a new SPL mint with `authority` as its mint authority; `authority` also pays the rent,
 * so it must hold SOL already. Returns the mint's address.
 */
export async function deployTestMint(chain: LiteSvmChain, authority: Keypair, decimals: number): Promise<PublicKey> {
  const mintKeypair = Keypair.generate();
  const rent = chain.svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE));
  await chain.sendInstructions(
    [
      SystemProgram.createAccount({ fromPubkey: authority.publicKey, newAccountPubkey: mintKeypair.publicKey, lamports: Number(rent), space: MINT_SIZE, programId: TOKEN_PROGRAM_ID }),
      createInitializeMint2Instruction(mintKeypair.publicKey, decimals, authority.publicKey, null),
    ],
    [authority, mintKeypair],
  );
  return mintKeypair.publicKey;
}

/** Mints `amount` to `owner`'s associated token account, creating the account first when it is missing (the authority pays). */
export async function mintTestTokens(chain: LiteSvmChain, authority: Keypair, mint: PublicKey, owner: PublicKey, amount: bigint): Promise<void> {
  const ata = getAssociatedTokenAddressSync(mint, owner, true);
  await chain.sendInstructions(
    [createAssociatedTokenAccountIdempotentInstruction(authority.publicKey, ata, owner, mint), createMintToInstruction(mint, ata, authority.publicKey, amount)],
    [authority],
  );
}

/** What `owner` holds of `mint` in its associated token account: 0 when that account does not exist. */
export function tokensOf(chain: LiteSvmChain, mint: PublicKey, owner: string): bigint {
  const account = chain.svm.getAccount(address(getAssociatedTokenAddressSync(mint, new PublicKey(owner), true).toBase58()));
  return account.exists ? AccountLayout.decode(account.data).amount : 0n;
}
