import { listSettlementAssets } from "@/lib/catalogue";

export const SOLANA_NETWORK = "solana";
export const SOL_SYMBOL = "SOL";

export const SYSTEM_PROGRAM_ID = "11111111111111111111111111111111";
/**
 * The classic SPL Token program. The catalogue's USDT and USDC mints belong to it; Token-2022
 * mints would need their own ATA derivation and are not watched.
 */
export const TOKEN_PROGRAM_ID = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";

/**
 * Base fee per signature in lamports. Fixed at 5000 on mainnet since genesis (and litesvm's
 * default); priority fees are not paid, so this is the whole fee of our transactions.
 */
export const LAMPORTS_PER_SIGNATURE = 5000n;

/** Size of an SPL token account: what a new ATA must hold rent for. */
export const TOKEN_ACCOUNT_SIZE = 165;

/**
 * The SPL tokens of the catalogue on Solana as symbol → mint, with per-symbol overrides (a local
 * test node has its own mint address for "USDT"). An override for a symbol the catalogue does
 * not list is ignored: only catalogue assets are ever reported or paid.
 */
export function resolveSolanaMints(overrides: Readonly<Record<string, string>> = {}): ReadonlyMap<string, string> {
  const mints = new Map<string, string>();
  for (const asset of listSettlementAssets()) {
    if (asset.network !== SOLANA_NETWORK || asset.kind !== "token" || !asset.contract) continue;
    mints.set(asset.symbol, overrides[asset.symbol] ?? asset.contract);
  }
  return mints;
}
