import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getChainSender } from "@/lib/chains/registry";
import { tronHexToAddress } from "@/lib/chains/tron/tron-encoding";
import type { Db, Tx } from "@/lib/db/client";
import { formatAmount } from "@/lib/domain/money/amount";
import { deliverDueWebhooks } from "@/lib/jobs/handlers/deliver-webhooks";
import { listAcceptedMethods } from "@/lib/services/accepted/accepted-methods";
import { getAllowlist } from "@/lib/services/allowlist/manage-allowlist";
import { listBalances } from "@/lib/services/balances/list-balances";
import { describeAccount } from "@/lib/services/cabinet/describe-account";
import { listApiKeys } from "@/lib/services/cabinet/api-keys";
import { listAuditEvents } from "@/lib/services/cabinet/audit-log";
import { loadInvoiceDetail } from "@/lib/services/invoices/load-invoice-detail";
import { exportInvoicesCsv, searchInvoices } from "@/lib/services/invoices/search-invoices";
import { loadOverview } from "@/lib/services/overview/load-overview";
import { countPayoutsAwaitingApproval, exportPayoutsCsv, searchPayouts } from "@/lib/services/payouts/search-payouts";
import { findPayoutDetail } from "@/lib/services/payouts/find-payout-detail";
import { listAssetChoices } from "@/lib/services/balances/list-asset-choices";
import { summarizeWalletDeposits } from "@/lib/services/static-wallets/summarize-wallet-deposits";
import { listSessions } from "@/lib/services/cabinet/sessions";
import { describeAutoWithdrawRules } from "@/lib/services/payouts/describe-auto-withdraw-rules";
import { describePlatformFee } from "@/lib/services/merchants/describe-platform-fee";
import { findMerchantDelivery, searchWebhookDeliveries } from "@/lib/services/webhooks/search-deliveries";
import { listPersonalWalletRows } from "@/lib/services/payouts/list-personal-wallet-rows";
import { listTeam } from "@/lib/services/cabinet/team";
import { getMerchantInvoiceOrThrow } from "@/lib/services/invoices/find-invoice";
import { listPaymentLinks } from "@/lib/services/payment-links/payment-links";
import { listPayoutLinks } from "@/lib/services/payout-links/list-payout-links";
import { getRefundFeeConfig } from "@/lib/services/refunds/create-refund";
import { getPayoutFeeConfig } from "@/lib/services/payouts/manage-payouts";
import { getAutorefund } from "@/lib/services/refunds/resolve-payment";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";
import { getSplitConfig, listSplitRules } from "@/lib/services/splits/split-rules";
import { listStaticWallets } from "@/lib/services/static-wallets/static-wallets";
import { getWebhookEndpoint } from "@/lib/services/webhooks/manage-endpoint";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { actAsPage, addMember, collect, endedPayment, movingClock, newStore, refusalCodeOf, success, TEST_PASSWORD, type CabinetStore, type MovingClock } from "@/lib/testing/cabinet";
import { fundMerchant, makeBlockedWalletWithHeldDeposit, payInvoice } from "@/lib/testing/funding";
import { callSigned, getTestDb, getTestSecretBox, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { CABINET_ACTIONS } from "./index";

// Isolation between stores, for the whole cabinet: a "victim" store holds one object of every
// kind the actions touch; the owner of an "intruder" store (every permission, a fresh code for
// each sensitive action) runs every action of CABINET_ACTIONS at the victim's objects, and every
// page read with the victim's ids. Actions naming the victim's object must answer the domain's
// not-found code; actions that only change the actor's own store must change the intruder's
// store. After each, every row of the victim (every table with a merchant_id, plus its users'
// sessions and codes, its ledger, its chain transfers) must be exactly as before.

const db = () => getTestDb();

/** A tron address of this file alone: other files put their fixed addresses on the compliance deny list for a moment. */
const freshTronAddress = () => tronHexToAddress(`41${randomBytes(20).toString("hex")}`)!;
/**
 * A random word with no uuid in it. Values a sample copies into the intruder's store (an order_id,
 * a reference, an e-mail) must not contain one: every uuid of the victim's rows counts as its id.
 */
const word = (prefix: string) => `${prefix}-${randomBytes(6).toString("hex")}`;

/**
 * Sends a payout on the tron sandbox until it is final. The victim's rows must hold still while
 * the intruder acts, and other files' payout passes would move an approved payout meanwhile.
 */
async function sendUntilFinal(payoutId: string, miner: TestMerchant): Promise<string> {
  const deps = makeTestDeps();
  const sender = getChainSender(deps.db, deps.config, "tron")!;
  for (let pass = 0; pass < 10; pass++) {
    await sendPayouts(deps, "tron", sender);
    const { status } = await deps.db.payout.findUniqueOrThrow({ where: { id: payoutId } });
    if (["confirmed", "failed", "cancelled"].includes(status)) return status;
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 12 }, miner);
  }
  throw new Error(`payout ${payoutId} is still not final`);
}

// ---- The victim's rows, byte for byte ----

/** Table name → its rows of the merchant as JSON text, sorted. */
type Snapshot = Record<string, string[]>;

/**
 * The merchant's rows reached by something other than a merchant_id column; `$1` is its id.
 * Nothing is left out: no column of the victim's may change while only another store acts (the
 * owner's session included — nothing here resolves it, so its last_seen_at stays).
 */
const RELATED_ROWS: Record<string, string> = {
  merchants: "SELECT to_jsonb(t)::text AS row FROM merchants t WHERE t.id = $1::uuid",
  cabinet_sessions: "SELECT to_jsonb(t)::text AS row FROM cabinet_sessions t WHERE t.user_id IN (SELECT id FROM cabinet_users WHERE merchant_id = $1::uuid)",
  cabinet_recovery_codes: "SELECT to_jsonb(t)::text AS row FROM cabinet_recovery_codes t WHERE t.user_id IN (SELECT id FROM cabinet_users WHERE merchant_id = $1::uuid)",
  cabinet_sign_in_tickets: "SELECT to_jsonb(t)::text AS row FROM cabinet_sign_in_tickets t WHERE t.user_id IN (SELECT id FROM cabinet_users WHERE merchant_id = $1::uuid)",
  cabinet_throttles: "SELECT to_jsonb(t)::text AS row FROM cabinet_throttles t WHERE t.key IN (SELECT 'account:' || id FROM cabinet_users WHERE merchant_id = $1::uuid)",
  ledger_accounts: "SELECT to_jsonb(t)::text AS row FROM ledger_accounts t WHERE t.owner = $1",
  ledger_postings: "SELECT to_jsonb(t)::text AS row FROM ledger_postings t WHERE t.account_id IN (SELECT id FROM ledger_accounts WHERE owner = $1)",
  ledger_journals:
    "SELECT to_jsonb(t)::text AS row FROM ledger_journals t WHERE t.id IN (SELECT p.journal_id FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id WHERE a.owner = $1)",
  chain_transfers:
    "SELECT to_jsonb(t)::text AS row FROM chain_transfers t WHERE t.invoice_id IN (SELECT id FROM invoices WHERE merchant_id = $1::uuid) OR t.static_wallet_id IN (SELECT id FROM static_wallets WHERE merchant_id = $1::uuid)",
  invoice_reviews: "SELECT to_jsonb(t)::text AS row FROM invoice_reviews t WHERE t.invoice_id IN (SELECT id FROM invoices WHERE merchant_id = $1::uuid)",
  auto_refund_attempts: "SELECT to_jsonb(t)::text AS row FROM auto_refund_attempts t WHERE t.invoice_id IN (SELECT id FROM invoices WHERE merchant_id = $1::uuid)",
  batch_items: "SELECT to_jsonb(t)::text AS row FROM batch_items t WHERE t.batch_id IN (SELECT id FROM batches WHERE merchant_id = $1::uuid)",
};

/**
 * Every row of a merchant. The tables with a merchant_id column are read from the schema, so a
 * merchant-scoped table added later is covered without a change here. split_rules is taken by
 * its owner (merchant_id): a rule of another store naming this one as its partner is that store's.
 */
async function snapshotOf(client: Db | Tx, merchantId: string): Promise<Snapshot> {
  const scoped = await client.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'merchant_id'`;
  const queries: Record<string, string> = { ...RELATED_ROWS };
  for (const { table_name } of scoped) queries[table_name] = `SELECT to_jsonb(t)::text AS row FROM "${table_name}" t WHERE t.merchant_id = $1::uuid`;
  const snapshot: Snapshot = {};
  for (const table of Object.keys(queries).sort()) {
    const rows = await client.$queryRawUnsafe<{ row: string }[]>(`${queries[table]} ORDER BY 1`, merchantId);
    snapshot[table] = rows.map((row) => row.row);
  }
  return snapshot;
}

const UUID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * What identifies the victim's objects, taken from its rows (a new kind of object is covered
 * without listing it): every uuid in them, and the identifiers that are not uuids — deposit
 * addresses, transaction ids, API key public ids, the users' e-mail addresses.
 */
function identifiersOf(snapshot: Snapshot): string[] {
  const ids = new Set<string>();
  for (const rows of Object.values(snapshot)) for (const row of rows) for (const id of row.match(UUID_PATTERN) ?? []) ids.add(id.toLowerCase());
  const fields: Record<string, string[]> = { invoices: ["address", "txid"], static_wallets: ["address"], chain_transfers: ["txid"], payouts: ["txid"], api_keys: ["public_id"], cabinet_users: ["email"] };
  for (const [table, names] of Object.entries(fields)) {
    for (const row of snapshot[table]) {
      const parsed = JSON.parse(row) as Record<string, unknown>;
      for (const name of names) if (typeof parsed[name] === "string" && parsed[name] !== "") ids.add((parsed[name] as string).toLowerCase());
    }
  }
  return [...ids];
}

function expectNoneOf(ids: readonly string[], label: string, value: unknown) {
  const text = JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? item.toString() : item instanceof Map ? [...item] : item)).toLowerCase();
  expect(
    ids.filter((id) => text.includes(id)),
    `${label} shows the victim's identifiers`,
  ).toEqual([]);
}

// ---- The two stores ----

/** The victim's objects that the samples name. */
interface Victim {
  merchantId: string;
  ownerUserId: string;
  paidInvoice: { uuid: string; orderId: string; address: string; txid: string };
  underpaidInvoice: string;
  refund: string;
  pendingPayout: { uuid: string; orderId: string };
  paymentLink: string;
  payoutLink: { id: string; reference: string };
  activeWallet: { uuid: string; orderId: string };
  blockedWallet: string;
  apiKey: string;
  /** The allow-list's entries: one the intruder tries to remove, one it adds to its own list. */
  cidrs: { removed: string; copied: string };
  /** Personal wallets and auto-withdraw rules: USDT (the intruder's removals name it), TRX (the intruder copies its address). */
  trxAddress: string;
  splitRule: string;
  delivery: string;
  member: string;
  invitation: { id: string; email: string };
  session: string;
  /** The victim's webhook endpoint, and how many requests it had when set up. */
  receiver: WebhookReceiver;
  requestsAtSetup: number;
}

interface Intruder extends CabinetStore {
  receiver: WebhookReceiver;
}

interface World {
  clock: MovingClock;
  victim: Victim;
  intruder: Intruder;
}

async function buildVictim(clock: MovingClock, miner: TestMerchant): Promise<Victim> {
  const store = await newStore(clock, "Victim shop");
  const owner = store.owner;
  const receiver = await startWebhookReceiver(() => 200);
  success(await actAsPage(clock, owner, "webhook.set", { url: receiver.url }), "webhook.set");

  // Money in: a paid invoice (its invoice.paid delivery), an underpaid one, a blocked wallet holding a deposit.
  const paid = await payInvoice(store.api, "200.00");
  const paidTxid = (await db().chainTransfer.findFirstOrThrow({ where: { invoiceId: paid.uuid } })).txid;
  const paidAddress = (await db().invoice.findUniqueOrThrow({ where: { id: paid.uuid } })).address!;
  const underpaid = (await endedPayment(store.api, 0.5)).uuid as string; // wrong_amount: what invoice.resolve decides on
  const blockedWallet = await makeBlockedWalletWithHeldDeposit(store.api, "12");

  // A refund, made through the API on the real clock (the test's clock runs ahead, and a payout is
  // not sent before its creation time) and sent until confirmed (see sendUntilFinal).
  const refund = (await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: "5", address: freshTronAddress() }, store.api)).body.result as { uuid: string };
  await sendUntilFinal(refund.uuid, miner);

  // A manual payout waiting for a second user's approval; links; a static wallet.
  const payoutOrderId = word("victim-payout");
  const pendingPayout = success(await actAsPage(clock, owner, "payout.create", { amount: "4", currency: "USDT", network: "tron", address: freshTronAddress(), order_id: payoutOrderId }), "payout.create");
  const paymentLink = success(await actAsPage(clock, owner, "payment_link.create", { title: "Tee", amount_mode: "fixed", currency: "EUR", amount: "19.99" }), "payment_link.create");
  const reference = word("victim-link");
  const payoutLink = success(await actAsPage(clock, owner, "payout_link.create", { currency: "USDT", network: "tron", amount: "7", reference, expires_in_hours: 720 }), "payout_link.create");
  const walletOrderId = word("victim-customer");
  const wallet = success(await actAsPage(clock, owner, "static_wallet.create", { currency: "USDT", network: "tron", order_id: walletOrderId }), "static_wallet.create");

  // Settings, after the payments (an auto-withdraw or split rule set earlier would move their money).
  const trxAddress = freshTronAddress();
  for (const currency of ["USDT", "TRX"]) {
    const address = currency === "TRX" ? trxAddress : freshTronAddress();
    success(await actAsPage(clock, owner, "personal_wallet.save", { currency, network: "tron", address, label: "cold storage" }), "personal_wallet.save");
    success(await actAsPage(clock, owner, "settings.set_auto_withdraw", { currency, network: "tron", address, min: "100" }), "settings.set_auto_withdraw");
  }
  const split = success(await actAsPage(clock, owner, "settings.create_split_rule", { percent: 10, address: freshTronAddress(), network: "tron", note: "partner" }), "settings.create_split_rule");
  success(await actAsPage(clock, owner, "settings.set_threshold", { currency: "TRX", network: "tron", per_payout: "7", per_day: "70" }), "settings.set_threshold");
  success(await actAsPage(clock, owner, "settings.set_accepted", { accepted: [{ currency: "USDT", network: "tron" }] }), "settings.set_accepted");
  // An operator's fee override: the intruder's settings must show the default.
  await db().merchant.update({ where: { id: store.merchantId }, data: { feePercentBps: 250 } });

  // The team: a member with a session, and a pending invitation.
  const member = await addMember(clock, store.merchantId, "finance", { enrol: false });
  const inviteeEmail = `${word("invitee")}@example.com`;
  const invitation = success(await actAsPage(clock, owner, "team.invite", { email: inviteeEmail, role: "viewer" }), "team.invite");

  // The allow-list last: once on, the victim's key is refused from 127.0.0.1.
  const cidrs = { removed: "203.0.113.0/24", copied: "198.51.100.0/24" };
  for (const cidr of Object.values(cidrs)) success(await actAsPage(clock, owner, "allowlist.add", { cidr }), "allowlist.add");
  success(await actAsPage(clock, owner, "allowlist.enable", { enabled: true }), "allowlist.enable");

  // Every event delivered, so no other file's dispatcher could move a delivery meanwhile.
  await deliverDueWebhooks(
    { db: db(), secretBox: getTestSecretBox(), now: clock.deps.now, sendOptions: { allowLoopback: true, timeoutMs: 2000 } },
    { limit: 100, perMerchantLimit: 100, onlyMerchantIds: [store.merchantId] },
  );
  const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { merchantId: store.merchantId, objectId: paid.uuid, eventType: "invoice.paid" } });

  return {
    merchantId: store.merchantId,
    ownerUserId: owner.actor.userId,
    paidInvoice: { uuid: paid.uuid, orderId: paid.order_id, address: paidAddress, txid: paidTxid },
    underpaidInvoice: underpaid,
    refund: refund.uuid,
    pendingPayout: { uuid: pendingPayout.uuid, orderId: payoutOrderId },
    paymentLink: paymentLink.link_id,
    payoutLink: { id: payoutLink.link_id, reference },
    activeWallet: { uuid: wallet.uuid, orderId: walletOrderId },
    blockedWallet,
    apiKey: store.api.publicId,
    cidrs,
    trxAddress,
    splitRule: split.rule_id,
    delivery: delivery.id,
    member: member.actor.userId,
    invitation: { id: invitation.id, email: inviteeEmail },
    session: owner.actor.sessionId,
    receiver,
    requestsAtSetup: receiver.received.length,
  };
}

async function buildIntruder(clock: MovingClock): Promise<Intruder> {
  const store = await newStore(clock, "Intruder shop");
  // Money for its own payouts and payout links, and an endpoint of its own for test events.
  await fundMerchant(store.api, "50.00");
  const receiver = await startWebhookReceiver(() => 200);
  success(await actAsPage(clock, store.owner, "webhook.set", { url: receiver.url }), "webhook.set");
  return { ...store, receiver };
}

// ---- What the intruder's owner sends, action by action ----

/**
 * The input of every cabinet action, pointing at the victim's objects. Samples are independent of
 * one another's effects: where an own-store action copies a victim's value (a cidr, an address),
 * the action that must not find it names another of the victim's values.
 */
/** The password the intruder's owner changes to (its effect check sets the old one back, for the samples after it). */
const INTRUDER_NEW_PASSWORD = "the intruder's new password";

const SAMPLES: Record<string, (victim: Victim, intruder: Intruder) => unknown> = {
  "payout.create": (victim) => ({ amount: "3", currency: "USDT", network: "tron", address: freshTronAddress(), order_id: victim.pendingPayout.orderId }),
  "payout.approve": (victim) => ({ uuid: victim.pendingPayout.uuid }),
  "payout.reject": (victim) => ({ uuid: victim.pendingPayout.uuid }),
  "payout.cancel": (victim) => ({ uuid: victim.pendingPayout.uuid }),
  "session.revoke": (victim) => ({ id: victim.session }),
  "session.revoke_all": () => ({}),
  "alerts.set": () => ({ kind: "debt", is_on: true }),
  "password.change": () => ({ current_password: TEST_PASSWORD, new_password: INTRUDER_NEW_PASSWORD }),
  "two_factor.regenerate_recovery_codes": () => ({}),
  "two_factor.begin_reset": () => ({ password: TEST_PASSWORD }),
  "two_factor.confirm_reset": () => ({ code: "000000" }),
  // Not the victim's order id: the page reads below search the intruder's invoices for it.
  "invoice.create": () => ({ amount: "5", currency: "USD", to_currency: "USDT", network: "tron", order_id: "intruder-own-order" }),
  "invoice.resend_webhook": (victim) => ({ uuid: victim.paidInvoice.uuid }),
  "refund.create": (victim) => ({ uuid: victim.paidInvoice.uuid, amount: "1", address: freshTronAddress() }),
  "invoice.resolve": (victim) => ({ uuid: victim.underpaidInvoice, action: "accept" }),
  "payment_link.create": () => ({ title: "Mug", amount_mode: "fixed", currency: "EUR", amount: "9.99" }),
  "payment_link.toggle": (victim) => ({ link_id: victim.paymentLink, is_active: false }),
  "payout_link.create": (victim) => ({ currency: "USDT", network: "tron", amount: "2", reference: victim.payoutLink.reference, expires_in_hours: 720 }),
  "payout_link.cancel": (victim) => ({ link_id: victim.payoutLink.id }),
  "static_wallet.create": (victim) => ({ currency: "USDT", network: "tron", order_id: victim.activeWallet.orderId }),
  "static_wallet.block": (victim) => ({ uuid: victim.activeWallet.uuid }),
  "static_wallet.refund_blocked": (victim) => ({ uuid: victim.blockedWallet, address: freshTronAddress() }),
  "settings.set_accepted": () => ({ accepted: [{ currency: "BTC", network: "bitcoin" }] }),
  "settings.set_payout_fee": () => ({ is_subtract: true }),
  "settings.set_refund_fee": () => ({ payer: "customer" }),
  "settings.set_autorefund": () => ({ underpaid: true, overpaid: true }),
  "settings.set_auto_withdraw": (victim) => ({ currency: "TRX", network: "tron", address: victim.trxAddress, min: "1" }),
  "settings.delete_auto_withdraw": () => ({ currency: "USDT", network: "tron" }),
  "settings.create_split_rule": () => ({ percent: 5, address: freshTronAddress(), network: "tron" }),
  "settings.delete_split_rule": (victim) => ({ rule_id: victim.splitRule }),
  "settings.set_split_config": () => ({ refund_hold_hours: 24 }),
  "settings.set_threshold": () => ({ currency: "TRX", network: "tron", per_payout: "9", per_day: null }),
  "allowlist.add": (victim) => ({ cidr: victim.cidrs.copied }),
  "allowlist.remove": (victim) => ({ cidr: victim.cidrs.removed }),
  "allowlist.enable": () => ({ enabled: false }),
  "personal_wallet.save": (victim) => ({ currency: "TRX", network: "tron", address: victim.trxAddress, label: "mine" }),
  "personal_wallet.remove": () => ({ currency: "USDT", network: "tron" }),
  "personal_wallet.transfer": () => ({ currency: "USDT", network: "tron", amount: "1", reference: word("transfer") }),
  // Its own receiver: webhook.test must then reach the intruder's endpoint, whatever the order.
  "webhook.set": (_victim, intruder) => ({ url: intruder.receiver.url }),
  "webhook.rotate_secret": () => ({ overlap_hours: 1 }),
  "webhook.test": () => ({ family: "payment", status: "paid" }),
  "webhook.resend": (victim) => ({ delivery_id: victim.delivery }),
  "team.invite": (victim) => ({ email: victim.invitation.email, role: "viewer" }),
  "team.revoke_invitation": (victim) => ({ id: victim.invitation.id }),
  "team.change_role": (victim) => ({ id: victim.member, role: "viewer" }),
  "team.remove": (victim) => ({ id: victim.member }),
  "api_key.create": () => ({ kind: "payment" }),
  "api_key.revoke": (victim) => ({ public_id: victim.apiKey }),
  "api_key.rotate": (victim) => ({ public_id: victim.apiKey }),
};

/** Actions that name one of the victim's objects: the code the intruder gets, the same as for an id that does not exist. */
const REFUSED_AS: Record<string, string> = {
  "payout.approve": "payout.not_found",
  "payout.reject": "payout.not_found",
  "payout.cancel": "payout.not_found",
  "session.revoke": "cabinet.not_found",
  // Names nothing of anyone's: a key waits only on the session that asked for it (the begin_reset
  // check clears the intruder's), so there is none to confirm.
  "two_factor.confirm_reset": "cabinet.no_pending_key",
  "invoice.resend_webhook": "payment.not_found",
  "refund.create": "payment.not_found",
  "invoice.resolve": "payment.not_found",
  "payment_link.toggle": "paylink.not_found",
  "payout_link.cancel": "payoutlink.not_found",
  "static_wallet.block": "wallet.static_not_found",
  "static_wallet.refund_blocked": "wallet.static_not_found",
  "settings.delete_auto_withdraw": "cabinet.not_found",
  "settings.delete_split_rule": "split.not_found",
  "allowlist.remove": "apiallow.not_found",
  "personal_wallet.remove": "cabinet.not_found",
  // The victim has a USDT wallet on tron, the intruder none: a transfer must not find the victim's address.
  "personal_wallet.transfer": "payout.no_destination",
  "webhook.resend": "cabinet.not_found",
  "team.revoke_invitation": "cabinet.not_found",
  "team.change_role": "cabinet.not_found",
  "team.remove": "cabinet.not_found",
  "api_key.revoke": "cabinet.not_found",
  "api_key.rotate": "cabinet.not_found",
};

const merchantRow = (merchantId: string) => db().merchant.findUniqueOrThrow({ where: { id: merchantId } });

/**
 * Actions that only create or configure something of the actor's own store: they succeed, and
 * this checks that what they wrote is the intruder's. Where the sample reuses a victim's key (an
 * order_id, a reference, an invitee's address), a new object of the intruder's must answer, not
 * the victim's one found again.
 */
const OWN_STORE_EFFECTS: Record<string, (result: Record<string, any>, world: World) => Promise<void>> = {
  "payout.create": async (payout, { victim, intruder }) => {
    expect(payout.uuid).not.toBe(victim.pendingPayout.uuid);
    expect(await db().payout.findUniqueOrThrow({ where: { id: payout.uuid } })).toMatchObject({ merchantId: intruder.merchantId, orderId: victim.pendingPayout.orderId, status: "pending" });
  },
  "payout_link.create": async (link, { victim, intruder }) => {
    expect(link.link_id).not.toBe(victim.payoutLink.id);
    expect(await db().payoutLink.findUniqueOrThrow({ where: { id: link.link_id } })).toMatchObject({ merchantId: intruder.merchantId, reference: victim.payoutLink.reference });
  },
  "invoice.create": async (payment, { victim, intruder }) => {
    expect(payment.uuid).not.toBe(victim.paidInvoice.uuid);
    expect(await db().invoice.findUniqueOrThrow({ where: { id: payment.uuid } })).toMatchObject({ merchantId: intruder.merchantId, orderId: "intruder-own-order" });
  },
  "payment_link.create": async (link, { intruder }) => {
    expect(await db().paymentLink.findUniqueOrThrow({ where: { id: link.link_id } })).toMatchObject({ merchantId: intruder.merchantId, title: "Mug" });
  },
  "static_wallet.create": async (wallet, { victim, intruder }) => {
    expect(wallet.uuid).not.toBe(victim.activeWallet.uuid);
    expect(await db().staticWallet.findUniqueOrThrow({ where: { id: wallet.uuid } })).toMatchObject({ merchantId: intruder.merchantId, orderId: victim.activeWallet.orderId });
  },
  "settings.set_accepted": async (result, { intruder }) => {
    expect(result.accepted).toEqual([{ currency: "BTC", network: "bitcoin" }]);
    expect(await listAcceptedMethods(db(), intruder.merchantId)).toEqual([{ currency: "BTC", network: "bitcoin" }]);
  },
  "settings.set_payout_fee": async (_result, { intruder }) => {
    expect((await merchantRow(intruder.merchantId)).payoutFeeOnTop).toBe(true);
  },
  "settings.set_refund_fee": async (_result, { intruder }) => {
    expect((await merchantRow(intruder.merchantId)).refundFeePayer).toBe("customer");
  },
  "settings.set_autorefund": async (result, { intruder }) => {
    expect(result).toEqual({ underpaid: true, overpaid: true });
    expect(await getAutorefund(db(), intruder.merchantId)).toEqual({ underpaid: true, overpaid: true });
  },
  "settings.set_auto_withdraw": async (_result, { victim, intruder }) => {
    const rule = await db().autoWithdrawRule.findUniqueOrThrow({ where: { merchantId_currency_network: { merchantId: intruder.merchantId, currency: "TRX", network: "tron" } } });
    expect(rule.address).toBe(victim.trxAddress);
  },
  "settings.create_split_rule": async (rule, { intruder }) => {
    expect(await db().splitRule.findUniqueOrThrow({ where: { id: rule.rule_id } })).toMatchObject({ merchantId: intruder.merchantId, percentBps: 500 });
  },
  "settings.set_split_config": async (_result, { intruder }) => {
    expect((await merchantRow(intruder.merchantId)).splitRefundHoldHours).toBe(24);
  },
  "settings.set_threshold": async (_result, { victim, intruder }) => {
    expect(await db().moneyOutThreshold.findUniqueOrThrow({ where: { merchantId_asset: { merchantId: intruder.merchantId, asset: "TRX:tron" } } })).toMatchObject({ perDayMinor: null });
    const kept = await db().moneyOutThreshold.findUniqueOrThrow({ where: { merchantId_asset: { merchantId: victim.merchantId, asset: "TRX:tron" } } });
    expect([kept.perPayoutMinor?.toFixed(), kept.perDayMinor?.toFixed()]).toEqual(["7000000", "70000000"]);
  },
  "allowlist.add": async (list, { victim, intruder }) => {
    expect(list.entries).toEqual([victim.cidrs.copied]);
    expect(await db().allowlistEntry.count({ where: { merchantId: intruder.merchantId, cidr: victim.cidrs.copied } })).toBe(1);
  },
  "allowlist.enable": async (list, { victim, intruder }) => {
    // The intruder's list: never the victim's other entry.
    expect(list.enabled).toBe(false);
    expect(list.entries).not.toContain(victim.cidrs.removed);
    expect((await merchantRow(intruder.merchantId)).allowlistEnabled).toBe(false);
  },
  "personal_wallet.save": async (wallet, { victim, intruder }) => {
    expect(wallet).toMatchObject({ currency: "TRX", network: "tron", address: victim.trxAddress, label: "mine" });
    expect(await db().personalWallet.count({ where: { merchantId: intruder.merchantId, currency: "TRX", network: "tron" } })).toBe(1);
  },
  "webhook.set": async (endpoint, { intruder }) => {
    expect(endpoint.url).toBe(intruder.receiver.url);
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { merchantId: intruder.merchantId } })).url).toBe(intruder.receiver.url);
  },
  "webhook.rotate_secret": async (rotated, { intruder }) => {
    expect(rotated.secret).toMatch(/^whsec_/);
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { merchantId: intruder.merchantId } })).previousSecretCiphertext).not.toBeNull();
  },
  "webhook.test": async (sent, { victim, intruder }) => {
    // To the intruder's endpoint, signed with its secret; the victim's receiver hears nothing more.
    expect(sent).toMatchObject({ delivered: true, signed: true, url: intruder.receiver.url });
    expect(victim.receiver.received).toHaveLength(victim.requestsAtSetup);
  },
  "team.invite": async (invitation, { victim, intruder }) => {
    expect(invitation.id).not.toBe(victim.invitation.id);
    expect(await db().cabinetInvitation.findUniqueOrThrow({ where: { id: invitation.id } })).toMatchObject({ merchantId: intruder.merchantId, email: victim.invitation.email, revokedAt: null });
  },
  "api_key.create": async (key, { intruder }) => {
    expect(await db().apiKey.findFirstOrThrow({ where: { publicId: key.public_id } })).toMatchObject({ merchantId: intruder.merchantId, kind: "payment" });
  },
  "password.change": async (result, { intruder }) => {
    const user = await db().cabinetUser.findUniqueOrThrow({ where: { id: intruder.owner.actor.userId } });
    expect(await verifyPassword(INTRUDER_NEW_PASSWORD, user.passwordHash)).toBe(true);
    expect(result.ended_sessions).toEqual(expect.any(Number));
    expect(await db().cabinetSession.findUnique({ where: { id: intruder.owner.actor.sessionId } })).not.toBeNull();
    // Back to the password the other samples use.
    await db().cabinetUser.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(TEST_PASSWORD) } });
  },
  "alerts.set": async (result, { victim, intruder }) => {
    expect(result).toEqual({ kinds: ["debt"] });
    expect(await db().cabinetAlertSubscription.findMany({ where: { kind: "debt", user: { merchantId: { in: [victim.merchantId, intruder.merchantId] } } }, select: { userId: true } })).toEqual([{ userId: intruder.owner.actor.userId }]);
  },
  "session.revoke_all": async (result, { intruder }) => {
    expect(result.ended_sessions).toBeGreaterThanOrEqual(1);
    expect(await db().cabinetSession.count({ where: { userId: intruder.owner.actor.userId } })).toBe(0);
    // The intruder's session again, for the actions after this one.
    await db().cabinetSession.create({ data: { id: intruder.owner.actor.sessionId, userId: intruder.owner.actor.userId, expiresAt: new Date(Date.now() + 3_600_000) } });
  },
  "two_factor.begin_reset": async (key, { intruder }) => {
    expect(key.secret).toMatch(/^[A-Z2-7]+$/);
    const session = await db().cabinetSession.findUniqueOrThrow({ where: { id: intruder.owner.actor.sessionId } });
    expect(session.pendingTotpSecretCiphertext).not.toBeNull();
    // Cleared again, so confirm_reset finds nothing whichever runs first.
    await db().cabinetSession.update({ where: { id: session.id }, data: { pendingTotpSecretCiphertext: null, pendingTotpExpiresAt: null } });
  },
  "two_factor.regenerate_recovery_codes": async (result, { intruder }) => {
    expect(await db().cabinetRecoveryCode.count({ where: { userId: intruder.owner.actor.userId, usedAt: null } })).toBe(result.recovery_codes.length);
  },
};

const ACTION_NAMES = Object.keys(CABINET_ACTIONS).sort();

describe("isolation between stores in the cabinet", () => {
  let world: World;
  let baseline: Snapshot;

  beforeAll(async () => {
    const clock = movingClock();
    const intruder = await buildIntruder(clock);
    const victim = await buildVictim(clock, intruder.api);
    world = { clock, victim, intruder };
    baseline = await snapshotOf(db(), victim.merchantId);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([world?.victim.receiver.close(), world?.intruder.receiver.close()]);
  });

  it("has a sample input, and an expected outcome, for every cabinet action", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(ACTION_NAMES);
    const outcomes = [...Object.keys(REFUSED_AS), ...Object.keys(OWN_STORE_EFFECTS)].sort();
    // Exactly one each: refused as not found, or run on the intruder's own store.
    expect(outcomes).toEqual(ACTION_NAMES);
  });

  it("gives the victim one object of every kind the actions touch, in the state they act on", async () => {
    const { victim } = world;
    const kinds = [
      "invoices",
      "webhook_deliveries",
      "webhook_endpoints",
      "payouts",
      "payment_links",
      "payout_links",
      "static_wallets",
      "api_keys",
      "allowlist_entries",
      "personal_wallets",
      "auto_withdraw_rules",
      "split_rules",
      "accepted_methods",
      "cabinet_users",
      "cabinet_invitations",
      "cabinet_sessions",
      "cabinet_recovery_codes",
      "cabinet_audit_events",
      "ledger_accounts",
      "ledger_postings",
      "ledger_journals",
      "chain_transfers",
    ];
    expect(kinds.filter((table) => (baseline[table] ?? []).length === 0)).toEqual([]);

    const payouts = await db().payout.findMany({ where: { merchantId: victim.merchantId } });
    expect(payouts.find((payout) => payout.id === victim.refund)).toMatchObject({ kind: "refund", status: "confirmed" });
    expect(payouts.find((payout) => payout.id === victim.pendingPayout.uuid)).toMatchObject({ source: "manual", status: "pending" });
    expect(await db().invoice.findUniqueOrThrow({ where: { id: victim.underpaidInvoice } })).toMatchObject({ status: "wrong_amount", resolution: null });
    expect(await db().staticWallet.findUniqueOrThrow({ where: { id: victim.blockedWallet } })).toMatchObject({ status: "blocked" });
    expect(await db().payoutLink.findUniqueOrThrow({ where: { id: victim.payoutLink.id } })).toMatchObject({ status: "funded" });
    expect(await db().cabinetInvitation.findUniqueOrThrow({ where: { id: victim.invitation.id } })).toMatchObject({ acceptedAt: null, revokedAt: null });
    expect((await merchantRow(victim.merchantId)).allowlistEnabled).toBe(true);
    expect(await db().webhookDelivery.count({ where: { merchantId: victim.merchantId, status: { not: "delivered" } } })).toBe(0);
  });

  it("notices any change to the victim's rows, and none comes from other work meanwhile", async () => {
    const { victim, intruder } = world;
    // A change made and rolled back: the snapshot sees it (in a store table, a user's session, the ledger).
    const changes = [
      "UPDATE payment_links SET is_active = NOT is_active WHERE merchant_id = $1::uuid",
      "UPDATE cabinet_sessions SET revoked_at = now() WHERE user_id IN (SELECT id FROM cabinet_users WHERE merchant_id = $1::uuid)",
      "UPDATE ledger_accounts SET updated_at = updated_at + interval '1 millisecond' WHERE owner = $1",
    ];
    for (const change of changes) {
      const rolledBack = new Error("rolled back");
      await expect(
        db().$transaction(async (tx) => {
          await tx.$executeRawUnsafe(change, victim.merchantId);
          expect(await snapshotOf(tx, victim.merchantId), change).not.toEqual(baseline);
          throw rolledBack;
        }),
      ).rejects.toBe(rolledBack);
    }
    // What runs beside this file (chains mined, payouts sent) leaves the victim's rows alone: a
    // difference below is the intruder's doing.
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 3 }, intruder.api);
    const deps = makeTestDeps();
    await sendPayouts(deps, "tron", getChainSender(deps.db, deps.config, "tron")!);
    expect(await snapshotOf(db(), victim.merchantId)).toEqual(baseline);
  });

  it.each(ACTION_NAMES)("%s, run by another store's owner, changes nothing of the victim's", async (name) => {
    const { clock, victim, intruder } = world;
    const before = await snapshotOf(db(), victim.merchantId);
    const answer = await actAsPage(clock, intruder.owner, name, SAMPLES[name](victim, intruder));
    if (name in REFUSED_AS) {
      expect(answer, `${name} with the victim's object`).toMatchObject({ ok: false, code: REFUSED_AS[name] });
    } else {
      await OWN_STORE_EFFECTS[name](success(answer, name), world);
    }
    expect(await snapshotOf(db(), victim.merchantId)).toEqual(before);
  });

  it("answers not found to every page read naming the victim's objects, and shows none of them in any list", async () => {
    const { clock, victim, intruder } = world;
    const deps = clock.deps;
    const victimId = victim.merchantId;
    const intruderId = intruder.merchantId;
    const ids = identifiersOf(baseline);
    const before = await snapshotOf(db(), victimId);

    // Pages that open one object by its id.
    for (const invoice of [victim.paidInvoice.uuid, victim.underpaidInvoice]) {
      expect(await refusalCodeOf(loadInvoiceDetail(deps, intruderId, invoice))).toBe("cabinet.not_found");
      expect(await refusalCodeOf(getMerchantInvoiceOrThrow(db(), intruderId, { uuid: invoice }))).toBe("payment.not_found");
      expect((await loadInvoiceDetail(deps, victimId, invoice)).payment.uuid).toBe(invoice);
    }
    for (const payout of [victim.refund, victim.pendingPayout.uuid]) {
      expect(await findPayoutDetail(deps, intruderId, payout)).toBeNull();
      expect(await findPayoutDetail(deps, victimId, payout)).not.toBeNull();
    }
    expect(await findMerchantDelivery(db(), intruderId, victim.delivery)).toBeNull();
    const wallets = await db().staticWallet.findMany({ where: { merchantId: victimId } });
    expect([...(await summarizeWalletDeposits(db(), intruderId, wallets)).values()].map((totals) => totals.count)).toEqual(wallets.map(() => 0));

    // Searches by what identifies the victim's invoice: the victim finds it, the intruder nothing.
    for (const query of [victim.paidInvoice.uuid, victim.paidInvoice.orderId, victim.paidInvoice.address, victim.paidInvoice.txid]) {
      expect((await searchInvoices(deps, victimId, { query }, { limit: 10 })).items.map((item) => item.uuid), query).toEqual([victim.paidInvoice.uuid]);
      expect((await searchInvoices(deps, intruderId, { query }, { limit: 10 })).items, query).toEqual([]);
      expect(await collect(exportInvoicesCsv(deps, intruderId, { query })), query).toHaveLength(1); // the header alone
    }
    expect((await searchWebhookDeliveries(db(), intruderId, { objectId: victim.paidInvoice.uuid }, { limit: 10 })).items).toEqual([]);
    expect((await listAuditEvents(db(), intruderId, { userId: victim.ownerUserId }, { limit: 10 })).events).toEqual([]);

    // Every list and summary a page shows the intruder: not one of the victim's identifiers in it.
    const victimEvent = (await db().cabinetAuditEvent.findFirstOrThrow({ where: { merchantId: victimId } })).id;
    const reads: Record<string, () => Promise<unknown>> = {
      "invoice search": () => searchInvoices(deps, intruderId, {}, { limit: 100 }),
      "invoice export": () => collect(exportInvoicesCsv(deps, intruderId, {})),
      "payout list": () => searchPayouts(deps, intruderId, {}, { limit: 100 }),
      "approval queue": () => searchPayouts(deps, intruderId, { isAwaitingApproval: true }, { limit: 100 }),
      "refund list": () => searchPayouts(deps, intruderId, { kind: "refund" }, { limit: 100 }),
      "payout export": () => collect(exportPayoutsCsv(deps, intruderId, {})),
      overview: () => loadOverview(deps, intruderId, { period: "30d" }),
      "payout asset choices": () => listAssetChoices(deps, intruderId, "payout"),
      "platform fee": () => describePlatformFee(db(), intruderId),
      "auto-withdraw rules": () => describeAutoWithdrawRules(db(), intruderId),
      "personal wallets": () => listPersonalWalletRows(deps, intruderId),
      "webhook deliveries": () => searchWebhookDeliveries(db(), intruderId, {}, { limit: 100 }),
      "webhook endpoint": () => getWebhookEndpoint(deps, intruderId),
      "API keys": () => listApiKeys(db(), intruderId),
      team: () => listTeam(db(), intruderId, deps.now()),
      "audit log": () => listAuditEvents(db(), intruderId, {}, { limit: 100 }),
      // A cursor of the victim's is not a position in the intruder's log.
      "audit log after a victim's event": () => listAuditEvents(db(), intruderId, {}, { limit: 100, cursor: victimEvent }),
      sessions: () => listSessions(db(), intruder.owner.actor, deps.now()),
      account: () => describeAccount(db(), intruder.owner.actor),
      "payment links": () => listPaymentLinks(deps, intruderId, { limit: 100 }),
      "payout links": () => listPayoutLinks(deps, intruderId, { limit: 100 }),
      "static wallets": () => listStaticWallets(deps, intruderId, { limit: 100 }),
      "allow-list": () => getAllowlist(db(), intruderId),
      "accepted currencies": () => listAcceptedMethods(db(), intruderId),
      "split rules": () => listSplitRules(deps, intruderId, { include_deleted: true }),
      "fee, autorefund and split settings": () =>
        Promise.all([getPayoutFeeConfig(db(), intruderId), getRefundFeeConfig(db(), intruderId), getAutorefund(db(), intruderId), getSplitConfig(deps, intruderId)]),
    };
    for (const [label, read] of Object.entries(reads)) expectNoneOf(ids, label, await read());

    // Figures without ids: the intruder's own, not the victim's.
    expect(await describePlatformFee(db(), intruderId)).toMatchObject({ isPercentOverride: false });
    expect((await getAllowlist(db(), intruderId)).entries).not.toContain(victim.cidrs.removed);
    expect(await countPayoutsAwaitingApproval(db(), intruderId)).toBe(await db().payout.count({ where: { merchantId: intruderId, status: "pending" } }));
    const [own] = await listBalances(db(), intruderId, { currency: "USDT", network: "tron" });
    const choice = (await listAssetChoices(deps, intruderId, "payout")).find((asset) => asset.currency === "USDT" && asset.network === "tron");
    expect(choice?.available).toBe(formatAmount(own.available, own.decimals));

    // Reads write nothing either.
    expect(await snapshotOf(db(), victimId)).toEqual(before);
  });

  it("leaves the victim exactly as it was set up, after every action and read", async () => {
    expect(await snapshotOf(db(), world.victim.merchantId)).toEqual(baseline);
  });
});
