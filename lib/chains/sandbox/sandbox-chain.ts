import { randomBytes, randomUUID, randomInt } from "node:crypto";
import bs58 from "bs58";
import type { Db, Tx } from "@/lib/db/client";
import { findNetwork, type NetworkId } from "@/lib/catalogue";
import { createRandomMasterSeed, deriveAccountXpubs, deriveDepositAddress, deriveEd25519DepositAddress } from "../addresses";
import { ED25519_FAMILIES } from "../addresses/derivation-paths";
import type { ChainAdapter, ObservedTransfer } from "../types";
import { withTransaction } from "@/lib/db/transaction";
import { queryRows } from "@/lib/db/direct-query";

/**
 * The sandbox chain of the operator contract: a simulated chain per network, stored in the
 * service's database, with blocks, a mempool, transactions in the network's own formats and
 * confirmations as blocks are mined. To the rest of the service it is a chain like any other.
 */

function blockHashFor(family: string): string {
  return family === "evm" ? `0x${randomBytes(32).toString("hex")}` : randomBytes(32).toString("hex");
}

/** A transaction id in the network's usual form. */
export function sandboxTxid(network: NetworkId): string {
  const family = findNetwork(network)?.family;
  if (family === "evm") return `0x${randomBytes(32).toString("hex")}`;
  if (family === "solana") return bs58.encode(randomBytes(64));
  return randomBytes(32).toString("hex");
}

let payerKeys: { xpubs: ReturnType<typeof deriveAccountXpubs>; seed: Uint8Array } | undefined;

/** An address of the network's format for a simulated payer ("from" of a sandbox deposit). */
export function randomSandboxPayerAddress(network: NetworkId): string {
  if (!payerKeys) {
    const { seed } = createRandomMasterSeed();
    payerKeys = { seed, xpubs: deriveAccountXpubs(seed) };
  }
  const family = findNetwork(network)?.family;
  const index = randomInt(0, 1_000_000);
  if (family && ED25519_FAMILIES.has(family)) return deriveEd25519DepositAddress({ network, seed: payerKeys.seed, index }).address;
  return deriveDepositAddress({ network, accountXpub: payerKeys.xpubs[network]!, index }).address;
}

async function ensureGenesis(db: Db | Tx, network: NetworkId, now: Date): Promise<void> {
  const family = findNetwork(network)?.family ?? "utxo";
  await db.sandboxBlock.createMany({ data: [{ network, height: 0, hash: blockHashFor(family), createdAt: now }], skipDuplicates: true });
}

/** Puts a transaction into the network's mempool (0 confirmations). */
export async function submitSandboxTransaction(
  db: Db | Tx,
  input: { network: NetworkId; currency: string; fromAddress: string; toAddress: string; amountMinor: bigint; now: Date; txid?: string },
): Promise<string> {
  await ensureGenesis(db, input.network, input.now);
  const txid = input.txid ?? sandboxTxid(input.network);
  // A transaction submitted again with its own txid (a repeated broadcast) is already there.
  await db.sandboxTransaction.createMany({
    skipDuplicates: true,
    data: {
      id: randomUUID(),
      network: input.network,
      txid,
      currency: input.currency,
      fromAddress: input.fromAddress,
      toAddress: input.toAddress,
      amountMinor: input.amountMinor.toString(),
      createdAt: input.now,
    },
  });
  return txid;
}

/** Mines `blocks` blocks; the first takes every mempool transaction. Returns the new height. */
export async function mineSandboxBlocks(db: Db, network: NetworkId, blocks: number, now: Date): Promise<number> {
  const family = findNetwork(network)?.family ?? "utxo";
  return withTransaction(db, async (tx) => {
    await ensureGenesis(tx, network, now);
    // Serialise miners of one network: heights must not collide.
    await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext(${`sandbox-mine:${network}`}))`;
    const tip = await tx.sandboxBlock.findFirstOrThrow({ where: { network }, orderBy: { height: "desc" } });
    const first = tip.height + 1;
    await tx.sandboxBlock.createMany({
      data: Array.from({ length: blocks }, (_, i) => ({ network, height: first + i, hash: blockHashFor(family), createdAt: now })),
    });
    await tx.sandboxTransaction.updateMany({ where: { network, blockHeight: null }, data: { blockHeight: first } });
    return first + blocks - 1;
  });
}

/** The chain's highest block. */
const READ_TIP = "SELECT height, hash FROM sandbox_blocks WHERE network = $1 ORDER BY height DESC LIMIT 1";

/** Transactions in the mempool or in blocks above a height, with their block's hash, in the order they were sent. */
const READ_TRANSFERS_AFTER = `
  SELECT sent.currency, sent.txid, sent.from_address, sent.to_address,
         sent.amount_minor::text AS amount_minor, sent.block_height, block.hash AS block_hash
  FROM sandbox_transactions sent
  LEFT JOIN sandbox_blocks block ON block.network = sent.network AND block.height = sent.block_height
  WHERE sent.network = $1 AND (sent.block_height IS NULL OR sent.block_height > $2)
  ORDER BY sent.created_at ASC`;

interface SandboxTransferRow {
  currency: string;
  txid: string;
  from_address: string;
  to_address: string;
  amount_minor: string;
  block_height: number | null;
  block_hash: string | null;
}

/**
 * The sandbox chain of one network behind the chain interface. The watcher asks every network
 * for its tip and new transfers every two seconds, so those two reads go to the driver directly,
 * one statement each (Prisma's path had made an idle service allocate about 1.8 MB a pass).
 */
export function createSandboxAdapter(db: Db, network: NetworkId): ChainAdapter {
  const isAccountBased = findNetwork(network)?.isAccountBased ?? true;
  return {
    network,
    source: "sandbox",
    capabilities: { hasMemo: false, knowsPayerAddress: isAccountBased },
    async getTip() {
      const readTip = async () => (await queryRows<{ height: number; hash: string }>(db, READ_TIP, [network]))[0];
      let tip = await readTip();
      if (!tip) {
        await ensureGenesis(db, network, new Date());
        tip = (await readTip())!;
      }
      return { height: tip.height, hash: tip.hash };
    },
    async scanTransfers({ afterHeight }) {
      const rows = await queryRows<SandboxTransferRow>(db, READ_TRANSFERS_AFTER, [network, afterHeight]);
      return rows.map(
        (row): ObservedTransfer => ({
          network,
          currency: row.currency,
          txid: row.txid,
          position: 0,
          toAddress: row.to_address,
          // spec: Payment — payer_address is empty on UTXO networks.
          fromAddress: isAccountBased ? row.from_address : "",
          amountMinor: BigInt(row.amount_minor),
          blockHeight: row.block_height,
          blockHash: row.block_height === null ? null : row.block_hash,
        }),
      );
    },
    async getBlockHash(height) {
      const block = await db.sandboxBlock.findUnique({ where: { network_height: { network, height } } });
      return block?.hash ?? null;
    },
  };
}
