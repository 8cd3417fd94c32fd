import "@/lib/chains/real-chain-families";
import { Keypair, type PublicKey } from "@solana/web3.js";
import { Blockchain, type SandboxContract, type TreasuryContract } from "@ton/sandbox";
import { registerRealChainFamily } from "@/lib/chains/real-chains";
import { createLiteSvmAccess, type LiteSvmChain } from "@/lib/chains/solana/testing/litesvm-access";
import { createSolanaAdapter } from "@/lib/chains/solana/solana-adapter";
import { identifySolanaCluster } from "@/lib/chains/solana/solana-chain";
import { createSolanaSender } from "@/lib/chains/solana/solana-sender";
import { deployTestMint } from "@/lib/chains/solana/testing/test-mint";
import { deployTestJetton, type TestJetton } from "@/lib/chains/ton/testing/test-jetton";
import { createTonAdapter } from "@/lib/chains/ton/ton-adapter";
import { createTonSandboxAccess, type TonSandboxChain } from "@/lib/chains/ton/testing/ton-sandbox-access";
import { createTonSender } from "@/lib/chains/ton/ton-sender";
import { createTronStandIn, type TronStandIn } from "@/lib/chains/tron/testing/tron-stand-in";
import { createTronChain } from "@/lib/chains/tron/tron-chain";

/** The families' chains in this process, to fund and inspect from a test. */
export interface InProcessChains {
  solana: { chain: LiteSvmChain; usdtMint: PublicKey; mintAuthority: Keypair };
  ton: { chain: TonSandboxChain; treasury: SandboxContract<TreasuryContract>; jetton: TestJetton };
  tron: TronStandIn;
  /** RPC_SOLANA, RPC_TON and RPC_TRON: any URL does, as nothing connects to it. */
  env: Record<string, string>;
}

/**
 * Test support: Solana, TON and Tron served in this process, for service-level tests (metrics,
 * the CLI) of the families no local node runs for: litesvm, @ton/sandbox and the Tron stand-in.
 * Their factories replace the families' own (lib/chains/real-chain-families.ts) for the rest of
 * the test file's process, so `env` given to verifyChains makes the registry serve them; the
 * adapters and senders are the real ones, over these access layers. Solana's USDT is a test mint
 * and TON's a test jetton; Tron keeps the catalogue's contracts.
 */
export async function startInProcessChains(): Promise<InProcessChains> {
  const solana = createLiteSvmAccess();
  const mintAuthority = Keypair.generate();
  solana.airdrop(mintAuthority.publicKey.toBase58(), 10_000_000_000n);
  const usdtMint = await deployTestMint(solana, mintAuthority, 6);
  const mints = { USDT: usdtMint.toBase58() };
  registerRealChainFamily("solana", (input) => ({
    adapter: createSolanaAdapter({ access: solana, watchedOwners: input.watchedAddresses, mints }),
    sender: createSolanaSender({ access: solana, mints }),
    identify: async () => identifySolanaCluster("litesvm"),
  }));

  const blockchain = await Blockchain.create();
  const ton = createTonSandboxAccess(blockchain);
  const treasury = await blockchain.treasury("treasury");
  const jetton = await deployTestJetton(ton, treasury);
  const jettons = { USDT: jetton.master.toString() };
  registerRealChainFamily("ton", (input) => ({
    adapter: createTonAdapter({ access: ton, watchedAddresses: input.watchedAddresses, jettons, chain: "test" }),
    sender: createTonSender({ access: ton, jettons, chain: "test" }),
    identify: async () => ({ chain: "test", isProduction: false, label: "@ton/sandbox" }),
  }));

  const tron = createTronStandIn();
  registerRealChainFamily("tron", (input) => createTronChain({ rpcUrl: tron.url, tokens: input.tokens, fetch: tron.fetch }));

  return {
    solana: { chain: solana, usdtMint, mintAuthority },
    ton: { chain: ton, treasury, jetton },
    tron,
    env: { RPC_SOLANA: "http://solana.in-process.test", RPC_TON: "http://ton.in-process.test", RPC_TRON: tron.url },
  };
}
