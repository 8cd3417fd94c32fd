import { address as bitcoinAddress } from "bitcoinjs-lib";
import { afterEach, describe, expect, it } from "vitest";
import type { NetworkId } from "@/lib/catalogue";
import { deriveAccountXpub, deriveDepositAddress, deriveMasterSeed, type AddressChain } from "@/lib/chains/addresses";
import { getUtxoParams } from "@/lib/chains/addresses/utxo-params";
import { startFakeNode, type TestHttpServer } from "./testing/http-server";
import { createUtxoAdapter } from "./utxo-adapter";
import { formatOutputAddress } from "./utxo-network";

/** The BIP-39 test mnemonic of BIP-84's test vectors. */
const TEST_MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const seed = deriveMasterSeed(TEST_MNEMONIC);

function depositAddress(network: NetworkId, chain: AddressChain, index = 0): string {
  return deriveDepositAddress({ network, accountXpub: deriveAccountXpub(seed, network, chain), index, chain }).address;
}

describe("UTXO deposit addresses: one code path, each network's parameters", () => {
  it.each([
    ["bitcoin", "main", "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"], // BIP-84 test vector, m/84'/0'/0'/0/0
    ["dogecoin", "main", "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC"], // m/44'/3'/0'/0/0, P2PKH
    ["litecoin", "main", "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh"], // m/84'/2'/0'/0/0
    ["litecoin", "regtest", "rltc1q6rz28mcfaxtmd6v789l9rrlrusdprr9puuzgkg"], // m/84'/1'/0'/0/0
  ] as const)("%s %s index 0 is %s, and the scanner reads its output script back to it", (network, chain, expected) => {
    const address = depositAddress(network, chain);
    expect(address).toBe(expected);
    const params = getUtxoParams(network, chain);
    expect(formatOutputAddress(params, bitcoinAddress.toOutputScript(address, params.bitcoinjs))).toBe(expected);
  });

  it("formats other script types in the network's encoding and skips scripts that pay no address", () => {
    const hash = new Uint8Array(20).fill(7);
    const p2sh = Uint8Array.from([0xa9, 0x14, ...hash, 0x87]);
    const p2wpkh = Uint8Array.from([0x00, 0x14, ...hash]);
    const opReturn = Uint8Array.from([0x6a, 0x04, 1, 2, 3, 4]);
    expect(formatOutputAddress(getUtxoParams("litecoin", "main"), p2sh)).toMatch(/^M/);
    expect(formatOutputAddress(getUtxoParams("bitcoin", "main"), p2sh)).toMatch(/^3/);
    expect(formatOutputAddress(getUtxoParams("dogecoin", "main"), p2sh)).toMatch(/^9|^A/);
    expect(formatOutputAddress(getUtxoParams("bitcoin", "regtest"), p2wpkh)).toMatch(/^bcrt1q/);
    // Dogecoin has no segwit: such a script has no address a dogecoin wallet could show.
    expect(formatOutputAddress(getUtxoParams("dogecoin", "main"), p2wpkh)).toBeNull();
    expect(formatOutputAddress(getUtxoParams("bitcoin", "main"), opReturn)).toBeNull();
  });
});

describe("scanTransfers on bitcoin and dogecoin nodes (fake node answering raw JSON)", () => {
  let node: TestHttpServer | undefined;
  afterEach(async () => {
    await node?.close();
    node = undefined;
  });

  const BLOCK_HASH = "11".repeat(32);
  const PREVIOUS_HASH = "22".repeat(32);
  const BLOCK_TXID = "33".repeat(32);
  const MEMPOOL_TXID = "44".repeat(32);

  /** A node on `chain` with one block at height 7 holding one transaction, and one mempool transaction. */
  async function startNode(chain: string, blockOutputs: string, mempoolOutputs: string) {
    node = await startFakeNode({
      getblockchaininfo: () => `{"chain":"${chain}","blocks":7,"bestblockhash":"${BLOCK_HASH}"}`,
      getrawmempool: () => `["${MEMPOOL_TXID}"]`,
      getrawtransaction: () => `{"txid":"${MEMPOOL_TXID}","vout":${mempoolOutputs}}`,
      getblockcount: () => "7",
      getblockhash: () => `"${BLOCK_HASH}"`,
      getblock: () => `{"hash":"${BLOCK_HASH}","height":7,"previousblockhash":"${PREVIOUS_HASH}","tx":[{"txid":"${BLOCK_TXID}","vout":${blockOutputs}}]}`,
    });
    return `http://user:secret@127.0.0.1:${node.port}`;
  }

  function output(n: number, value: string, address: string, params: ReturnType<typeof getUtxoParams>): string {
    const hex = Buffer.from(bitcoinAddress.toOutputScript(address, params.bitcoinjs)).toString("hex");
    return `{"n":${n},"value":${value},"scriptPubKey":{"hex":"${hex}"}}`;
  }

  it("bitcoin mainnet: bc1 addresses, exact satoshis", async () => {
    const params = getUtxoParams("bitcoin", "main");
    const deposit = depositAddress("bitcoin", "main");
    const other = depositAddress("bitcoin", "main", 1);
    const rpcUrl = await startNode(
      "main",
      `[${output(0, "20999999.99999999", deposit, params)},{"n":1,"value":0.00000000,"scriptPubKey":{"hex":"6a0401020304"}}]`,
      `[${output(0, "0.00000546", other, params)}]`,
    );
    const adapter = createUtxoAdapter({ network: "bitcoin", rpcUrl });
    expect(await adapter.chain()).toBe("main");
    expect(await adapter.getTip()).toEqual({ height: 7, hash: BLOCK_HASH });
    expect(await adapter.scanTransfers({ afterHeight: 6 })).toEqual([
      { network: "bitcoin", currency: "BTC", txid: BLOCK_TXID, position: 0, toAddress: deposit, fromAddress: "", amountMinor: 2_099_999_999_999_999n, blockHeight: 7, blockHash: BLOCK_HASH },
      { network: "bitcoin", currency: "BTC", txid: MEMPOOL_TXID, position: 0, toAddress: other, fromAddress: "", amountMinor: 546n, blockHeight: null, blockHash: null },
    ]);
    // The credentials of the URL travel as Basic auth.
    expect(new Set(node?.authorizations)).toEqual(new Set([`Basic ${Buffer.from("user:secret").toString("base64")}`]));
  });

  it("dogecoin mainnet: D addresses, and amounts beyond 2^53 koinu stay exact", async () => {
    const params = getUtxoParams("dogecoin", "main");
    const deposit = depositAddress("dogecoin", "main");
    const rpcUrl = await startNode("main", `[${output(3, "99999999999.99999999", deposit, params)}]`, "[]");
    const adapter = createUtxoAdapter({ network: "dogecoin", rpcUrl });
    expect(await adapter.scanTransfers({ afterHeight: 6 })).toEqual([
      { network: "dogecoin", currency: "DOGE", txid: BLOCK_TXID, position: 3, toAddress: deposit, fromAddress: "", amountMinor: 9_999_999_999_999_999_999n, blockHeight: 7, blockHash: BLOCK_HASH },
    ]);
  });
});
