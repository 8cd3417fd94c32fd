import { randomUUID } from "node:crypto";
import { TronWeb, utils } from "tronweb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiDeps, type ApiDeps } from "@/lib/api/deps";
import { issueApiKey } from "@/lib/auth/api-keys";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { bytesToHex } from "@/lib/chains/tron/tron-encoding";
import { createRecordedConversation, readFixtureJson, TEST_NODE_URL, type RecordedExchange } from "@/lib/chains/tron/testing/tron-recorded-conversation";
import { createTronSender } from "@/lib/chains/tron/tron-sender";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import type { SigningKey } from "@/lib/chains/types";
import { createSecretBox } from "@/lib/crypto/secret-box";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { callSigned, makeTestConfig, TEST_MASTER_KEY, type TestMerchant } from "@/lib/testing/harness";
import { createOwnDatabase, type OwnDatabase } from "@/lib/testing/own-database";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// Payouts on Tron through the whole service — payout, outgoing transfer, the Tron sender — with
// the node played by recorded conversations (lib/chains/tron/testing/fixtures: no Tron node runs here).
// The file runs on a database of its own, so no other test's payout worker sends its payouts.

const RECIPIENT = "TPLkz8rzTT7gKRS1bUm3hBcvw1EExAbKTV";
const RECIPIENT_HEX = "4192ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a";
const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";
/** Just after the node built the recorded payouts. */
const NOW = 1_767_246_226_500;

let own: OwnDatabase;
let deps: ApiDeps;
let hot: SigningKey;
let hotHex: string;

beforeAll(async () => {
  own = await createOwnDatabase("tron_payouts");
  // A box of this file's own: the key material cache is per box, and this database has its own keys.
  const box = createSecretBox(Buffer.from(TEST_MASTER_KEY, "hex"));
  deps = createApiDeps(makeTestConfig({ DATABASE_URL: own.url }), own.db, box);
  hot = deriveSigningKey((await loadKeyMaterial(own.db, box)).openSeed(), "tron", HOT_WALLET_INDEX, "main");
  hotHex = TronWeb.address.toHex(hot.address).toLowerCase();
});

afterAll(async () => {
  await own?.close();
});

async function fundedMerchant(): Promise<TestMerchant> {
  const merchantId = randomUUID();
  await own.db.merchant.create({ data: { id: merchantId, name: "Tron payouts" } });
  const key = await issueApiKey(own.db, deps.secretBox, merchantId, "unified");
  const merchant = { merchantId, publicId: key.publicId, secret: key.secret };
  for (const [currency, amount] of [["USDT", "300.00"], ["TRX", "30.00"]]) {
    const invoice = (await callSigned("/v1/payment", { amount, currency: "USD", to_currency: currency, network: "tron" }, merchant, { deps })).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency, address: invoice.address, amount: invoice.payer_amount }, merchant, { deps });
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant, { deps });
  }
  return merchant;
}

interface UnsignedTransaction {
  txID: string;
  raw_data: { contract: Array<{ parameter: { value: Record<string, unknown> } }> } & Record<string, unknown>;
  raw_data_hex: string;
}

/**
 * The recorded node answer, built for this database's hot wallet: the owner replaced and the
 * transaction re-encoded by TronWeb (an implementation independent of the sender), so its raw
 * data, hex and txID agree as a node's would.
 */
function forOurHotWallet(recorded: UnsignedTransaction): UnsignedTransaction {
  const changed = structuredClone(recorded);
  changed.raw_data.contract[0].parameter.value.owner_address = hotHex;
  const pb = utils.transaction.txJsonToPb(changed as never);
  return { ...changed, raw_data_hex: String(utils.transaction.txPbToRawDataHex(pb)).toLowerCase(), txID: String(utils.transaction.txPbToTxID(pb)).replace(/^0x/, "") };
}

/** The body the sender must broadcast: the node's transaction signed as TronWeb signs it with the hot wallet's key. */
function signedBody(unsigned: UnsignedTransaction): Record<string, unknown> {
  const signed = utils.crypto.signTransaction(bytesToHex(hot.privateKey), structuredClone(unsigned) as never) as { signature: string[] };
  return { ...unsigned, signature: signed.signature.map((signature) => signature.toLowerCase()) };
}

/** A recorded answer about a transaction, naming ours. */
function about(fixture: string, txid: string): unknown {
  return { ...(readFixtureJson(fixture) as Record<string, unknown>), id: txid };
}

function senderFor(exchanges: RecordedExchange[]) {
  const conversation = createRecordedConversation(exchanges);
  return { sender: createTronSender({ rpcUrl: TEST_NODE_URL, fetch: conversation.fetch, now: () => NOW }), conversation };
}

describe("Tron payouts on recorded conversations", () => {
  it("sends a USDT payout from the hot wallet, follows it to confirmed, and pays the reserve out once", async () => {
    const merchant = await fundedMerchant();
    const created = await callSigned("/v1/payout", { amount: "250", currency: "USDT", network: "tron", address: RECIPIENT, order_id: "usdt-1", is_subtract: true }, merchant, { deps });
    expect(created.status).toBe(200);
    const recorded = readFixtureJson("triggersmartcontract.json") as { result: unknown; transaction: UnsignedTransaction };
    const unsigned = forOurHotWallet(recorded.transaction);
    const { sender, conversation } = senderFor([
      {
        path: "/wallet/triggersmartcontract",
        body: {
          owner_address: hotHex,
          contract_address: USDT_HEX,
          function_selector: "transfer(address,uint256)",
          parameter: `000000000000000000000000${RECIPIENT_HEX.slice(2)}${(250_000_000).toString(16).padStart(64, "0")}`,
          fee_limit: 100_000_000,
          call_value: 0,
          visible: false,
        },
        json: { ...recorded, transaction: unsigned },
      },
      { path: "/wallet/broadcasttransaction", body: signedBody(unsigned), json: { result: true, txid: unsigned.txID } },
      { path: "/wallet/gettransactioninfobyid", body: { value: unsigned.txID }, json: about("gettransactioninfobyid-usdt.json", unsigned.txID) },
      { path: "/wallet/getnowblock", body: {}, fixture: "getnowblock-later.json" },
    ]);
    await sendPayouts(deps, "tron", sender);
    conversation.assertDone();
    const payout = (await callSigned("/v1/payout/info", { uuid: created.body.result.uuid }, merchant, { deps })).body.result;
    expect(payout).toMatchObject({ status: "paid", internal_status: "confirmed", txid: unsigned.txID, receive_amount: "250" });
    // What the chain burned (from the receipt) is booked apart from the merchant's payout fee.
    const transfer = await own.db.outgoingTransfer.findFirstOrThrow({ where: { reference: `payout:${payout.uuid}:send:1` } });
    expect(transfer.feeMinor?.toFixed()).toBe("6773500");
    expect(await auditLedger(own.db)).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("sends a TRX payout; a hot wallet short of TRX makes it wait, and the next attempt goes out once", async () => {
    const merchant = await fundedMerchant();
    const created = await callSigned("/v1/payout", { amount: "12.345678", currency: "TRX", network: "tron", address: RECIPIENT, order_id: "trx-1", is_subtract: true }, merchant, { deps });
    expect(created.status).toBe(200);
    const unsigned = forOurHotWallet(readFixtureJson("createtransaction.json") as UnsignedTransaction);
    const build: RecordedExchange = {
      path: "/wallet/createtransaction",
      body: { owner_address: hotHex, to_address: RECIPIENT_HEX, amount: 12_345_678, visible: false },
      json: unsigned,
    };
    const short = senderFor([
      build,
      { path: "/wallet/broadcasttransaction", body: signedBody(unsigned), fixture: "broadcasttransaction-error.json" },
      // Refused: before another attempt the chain is asked whether it knows the transaction.
      { path: "/wallet/gettransactioninfobyid", body: { value: unsigned.txID }, json: {} },
    ]);
    await sendPayouts(deps, "tron", short.sender);
    short.conversation.assertDone();
    const waiting = (await callSigned("/v1/payout/info", { uuid: created.body.result.uuid }, merchant, { deps })).body.result;
    expect(waiting).toMatchObject({ status: "process", internal_status: "approved" });
    expect(waiting.wait_reason).toMatch(/balance is not sufficient/);
    await expect(transferCount(created.body.result.uuid)).resolves.toBe(1);

    // The hot wallet is topped up; after the backoff the next attempt is built anew (a later
    // timestamp: other bytes, another txid), sent once and followed to confirmed.
    await own.db.payout.update({ where: { id: created.body.result.uuid }, data: { nextAttemptAt: new Date(0) } });
    const later = structuredClone(readFixtureJson("createtransaction.json") as UnsignedTransaction);
    later.raw_data.timestamp = Number(later.raw_data.timestamp) + 3_000;
    later.raw_data.expiration = Number(later.raw_data.expiration) + 3_000;
    const retried = forOurHotWallet(later);
    expect(retried.txID).not.toBe(unsigned.txID);
    const funded = senderFor([
      { ...build, json: retried },
      { path: "/wallet/broadcasttransaction", body: signedBody(retried), json: { result: true, txid: retried.txID } },
      { path: "/wallet/gettransactioninfobyid", body: { value: retried.txID }, json: about("gettransactioninfobyid-trx.json", retried.txID) },
      { path: "/wallet/getnowblock", body: {}, fixture: "getnowblock-later.json" },
    ]);
    await sendPayouts(deps, "tron", funded.sender);
    funded.conversation.assertDone();
    const paid = (await callSigned("/v1/payout/info", { uuid: created.body.result.uuid }, merchant, { deps })).body.result;
    expect(paid).toMatchObject({ status: "paid", txid: retried.txID, receive_amount: "12.345678", wait_reason: "" });
    await expect(transferCount(created.body.result.uuid)).resolves.toBe(2);
    expect(await own.db.outgoingTransfer.count({ where: { reference: { startsWith: `payout:${created.body.result.uuid}:` }, status: "confirmed" } })).toBe(1);
    expect(await auditLedger(own.db)).toEqual(CLEAN_LEDGER_AUDIT);
  });
});

async function transferCount(payoutId: string): Promise<number> {
  return own.db.outgoingTransfer.count({ where: { reference: { startsWith: `payout:${payoutId}:` } } });
}
