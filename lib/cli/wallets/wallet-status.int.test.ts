import { PublicKey } from "@solana/web3.js";
import { Address, toNano } from "@ton/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { findSettlementAsset, type NetworkId } from "@/lib/catalogue";
import { hotWalletAddress } from "@/lib/chains/hot-wallet";
import { loadKeyMaterial, type KeyMaterial } from "@/lib/chains/key-material";
import { resetRealChains } from "@/lib/chains/real-chains";
import { addressChainOf } from "@/lib/chains/registry";
import { mintTestTokens } from "@/lib/chains/solana/testing/test-mint";
import { startInProcessChains, type InProcessChains } from "@/lib/chains/testing/in-process-chains";
import { startLitecoind, type RegtestNode } from "@/lib/chains/utxo/testing/litecoind";
import type { GatewayConfig } from "@/lib/config/env";
import { parseAmount } from "@/lib/domain/money/amount";
import { getTestDb, getTestSecretBox, makeTestConfig } from "@/lib/testing/harness";
import { listWalletStatus, type WalletStatusRow } from "./wallet-status";

// `wallets status` for the families a CLI process of its own cannot reach here: the report the
// command prints, built in this process against litecoind -regtest started by this file (UTXO),
// litesvm (Solana), @ton/sandbox (TON) and the Tron stand-in. cli.int.test.ts runs the command
// itself on sandbox chains, an EVM node and litecoind.

let node: RegtestNode;
let chains: InProcessChains;
let config: GatewayConfig;
let keys: KeyMaterial;

beforeAll(async () => {
  [node, chains] = await Promise.all([startLitecoind(), startInProcessChains()]);
  resetRealChains();
  config = makeTestConfig({ ...chains.env, RPC_LITECOIN: node.rpcUrl });
  const report = await listWalletStatus({ db: getTestDb(), config, secretBox: getTestSecretBox() }, { isAll: true, timeoutMs: 10_000 });
  // The report verified the nodes: their address formats are known from here on.
  expect(report.find((row) => row.network === "litecoin")?.source).toBe("rpc");
  keys = await loadKeyMaterial(getTestDb(), getTestSecretBox());
}, 120_000);

afterAll(async () => {
  resetRealChains();
  await node?.stop();
});

function hot(network: NetworkId): string {
  return hotWalletAddress(keys, network, addressChainOf(config, network));
}

function statusOf(network: NetworkId, timeoutMs: number): Promise<WalletStatusRow[]> {
  return listWalletStatus({ db: getTestDb(), config, secretBox: getTestSecretBox() }, { isAll: true, timeoutMs }).then((rows) => rows.filter((row) => row.network === network));
}

/** A signed decimal string in minor units. */
function minor(text: string, decimals: number): bigint {
  return parseAmount(text.replace(/^-/, ""), decimals)! * (text.startsWith("-") ? -1n : 1n);
}

describe("wallets status on every family's node", () => {
  it("shows each hot wallet's balance as its chain reads it, against what the ledger owes", async () => {
    await node.rpc.call("sendtoaddress", [hot("litecoin"), "0.4"], z.string());
    await node.mine(1);
    chains.solana.chain.airdrop(hot("solana"), 1_250_000_000n);
    await mintTestTokens(chains.solana.chain, chains.solana.mintAuthority, chains.solana.usdtMint, new PublicKey(hot("solana")), 99_000_001n);
    chains.ton.chain.record(await chains.ton.treasury.send({ to: Address.parse(hot("ton")), value: toNano("4.2"), bounce: false }));
    await chains.ton.jetton.mint(Address.parse(hot("ton")), 3_000_000n);
    chains.tron.setTrx(hot("tron"), 7_000_001n);
    chains.tron.setTokenBalance(findSettlementAsset("USDT", "tron")!.contract!, hot("tron"), 500_250_000n);

    const expected: [NetworkId, string, string, number][] = [
      ["litecoin", "LTC", "0.4", 8],
      ["solana", "SOL", "1.25", 9],
      ["solana", "USDT", "99.000001", 6],
      ["solana", "USDC", "0", 6],
      ["ton", "TON", "4.2", 9],
      ["ton", "USDT", "3", 6],
      ["tron", "TRX", "7.000001", 6],
      ["tron", "USDT", "500.25", 6],
    ];
    const served = new Set(["litecoin", "solana", "ton", "tron"]);
    const rows = (await listWalletStatus({ db: getTestDb(), config, secretBox: getTestSecretBox() }, { isAll: true, timeoutMs: 10_000 })).filter((row) => served.has(row.network));
    // Every catalogue asset of these networks, none left out.
    expect(rows.map((row) => `${row.currency}:${row.network}`).sort()).toEqual(expected.map(([network, currency]) => `${currency}:${network}`).sort());
    for (const [network, currency, balance, decimals] of expected) {
      const row = rows.find((candidate) => candidate.network === network && candidate.currency === currency)!;
      expect(row, `${network} ${currency}`).toMatchObject({ source: "rpc", hot_wallet_address: hot(network), hot_wallet_balance: balance, note: "" });
      expect(minor(row.difference!, decimals)).toBe(minor(balance, decimals) - minor(row.owed, decimals));
    }
  });

  it("shows a node that does not answer in time as unknown, with the reason", async () => {
    chains.tron.isHanging = true;
    try {
      const rows = await statusOf("tron", 300);
      expect(rows.map((row) => row.currency)).toEqual(["TRX", "USDT"]);
      for (const row of rows) {
        expect(row).toMatchObject({ source: "rpc", hot_wallet_balance: null, difference: null, note: expect.stringMatching(/did not answer within 300 ms/) });
      }
    } finally {
      chains.tron.isHanging = false;
    }
  });
});
