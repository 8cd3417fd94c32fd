import { randomUUID } from "node:crypto";
import type { Invoice, Payout, WebhookEvent } from "@/generated/prisma/client";
import type { ApiDeps } from "@/lib/api/deps";
import { findNetwork, findSettlementAsset, normalizeNetworkId, normalizeSymbol, type NetworkId, type SettlementAsset } from "@/lib/catalogue";
import { resolveNetworkStatus } from "@/lib/chains/network-sources";
import { randomSandboxPayerAddress } from "@/lib/chains/sandbox/sandbox-chain";
import { createSandboxSender } from "@/lib/chains/sandbox/sandbox-sender";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { isAppError } from "@/lib/errors";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { runUnit } from "@/lib/deps/unit-of-work";
import { matureDueLots } from "@/lib/jobs/handlers/mature-lots";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { createPayout } from "@/lib/services/payouts/create-payout";
import { cancelPayout } from "@/lib/services/payouts/manage-payouts";
import { payoutConfirmations } from "@/lib/services/payouts/send-payouts";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";
import { sandboxExpireInvoice } from "@/lib/services/sandbox/sandbox-operations";
import { depositOnSandbox, mineOnSandbox } from "@/lib/jobs/handlers/sandbox-chain";
import { createStaticWallet } from "@/lib/services/static-wallets/static-wallets";
import { CliError } from "../cli-error";
import { pause } from "../lookups";
import { TRIGGERABLE_EVENTS } from "./triggerable-events";


export interface TriggerInput {
  type: string;
  merchantId: string;
  network: string;
  currency: string;
  /** Price of an invoice in USD; amount of a payout or wallet deposit in the asset. Decimal strings. */
  amount?: string;
  timeoutMs: number;
  actor: string;
  signal: AbortSignal;
}

export interface TriggerOutcome {
  event: WebhookEvent;
  object: { kind: "invoice" | "wallet" | "payout"; id: string };
  /** The invoice that funded a payout when the balance was short. */
  fundedBy?: string;
}

interface Scene {
  deps: ApiDeps;
  input: TriggerInput;
  network: NetworkId;
  asset: SettlementAsset;
  deadline: number;
}

/**
 * Stripe's `trigger`, on sandbox chains: makes real objects and drives them (deposits, mined
 * blocks, payout passes) until the event really happens in the service, then returns it.
 */
export async function triggerEvent(deps: ApiDeps, input: TriggerInput): Promise<TriggerOutcome> {
  if (!(input.type in TRIGGERABLE_EVENTS)) {
    throw new CliError("cli.usage", `trigger cannot make ${input.type} happen; it makes ${Object.keys(TRIGGERABLE_EVENTS).join(", ")}`);
  }
  if (!deps.config.sandbox) throw new CliError("cli.sandbox_off", "trigger drives sandbox chains, and sandbox mode is off (GATEWAY_SANDBOX=1 turns it on)");
  const network = findNetwork(normalizeNetworkId(input.network));
  if (!network) throw new CliError("cli.usage", `Unknown network ${input.network}`);
  if (resolveNetworkStatus(network, deps.config).source !== "sandbox") throw new CliError("cli.sandbox_off", `${network.id} is not a sandbox chain here (a real node serves it)`);
  const asset = findSettlementAsset(normalizeSymbol(input.currency), network.id);
  if (!asset) throw new CliError("cli.usage", `${input.currency} is not carried on ${network.id}`);
  const scene: Scene = { deps, input, network: network.id, asset, deadline: Date.now() + input.timeoutMs };
  const [family] = input.type.split(".");
  if (family === "invoice") return triggerInvoiceEvent(scene);
  if (family === "wallet") return triggerWalletEvent(scene);
  return triggerPayoutEvent(scene);
}

/** The event once the service has recorded it; in between, `step` drives the object on. */
async function driveUntilEvent(scene: Scene, objectId: string, step: () => Promise<void>): Promise<WebhookEvent> {
  for (;;) {
    const event = await scene.deps.db.webhookEvent.findFirst({ where: { merchantId: scene.input.merchantId, objectId, type: scene.input.type }, orderBy: { createdAt: "desc" } });
    if (event) return event;
    if (scene.input.signal.aborted) throw new CliError("cli.failed", `stopped before ${scene.input.type} happened`);
    if (Date.now() > scene.deadline) throw new CliError("cli.timeout", `${scene.input.type} did not happen within ${scene.input.timeoutMs / 1000} s`);
    await step();
    await pause(100, scene.input.signal);
  }
}

const mine = (scene: Scene, blocks: number) => mineOnSandbox(scene.deps, { network: scene.network, blocks: Math.min(Math.max(blocks, 1), 1000) });

async function deposit(scene: Scene, address: string, amountMinor: bigint): Promise<void> {
  await depositOnSandbox(scene.deps, { network: scene.network, currency: scene.asset.symbol, address, amount: formatAmount(amountMinor, scene.asset.decimals) });
}

async function createSandboxInvoice(scene: Scene, price: { amount: string; currency: string }): Promise<Invoice> {
  return runUnit(scene.deps, createInvoice, {
    merchantId: scene.input.merchantId,
    input: { amount: price.amount, currency: price.currency, to_currency: scene.asset.symbol, network: scene.network, order_id: `trigger-${randomUUID()}` },
  });
}

/** Pays an invoice `numerator/denominator` of what it asks and mines its confirmations. */
async function payInvoice(scene: Scene, invoice: Invoice, share: { numerator: bigint; denominator: bigint }): Promise<void> {
  // Rounded up: the payer never sends less than the share.
  const amount = (toMinor(invoice.payerAmountMinor) * share.numerator + share.denominator - 1n) / share.denominator;
  await deposit(scene, invoice.address!, amount);
  await mine(scene, invoice.requiredConfirmations);
}

async function triggerInvoiceEvent(scene: Scene): Promise<TriggerOutcome> {
  const invoice = await createSandboxInvoice(scene, { amount: scene.input.amount ?? "10.00", currency: "USD" });
  const type = scene.input.type;
  if (type === "invoice.paid") await payInvoice(scene, invoice, { numerator: 1n, denominator: 1n });
  if (type === "invoice.paid_over") await payInvoice(scene, invoice, { numerator: 2n, denominator: 1n });
  if (type === "invoice.wrong_amount") await payInvoice(scene, invoice, { numerator: 1n, denominator: 2n });
  if (type === "invoice.wrong_amount" || type === "invoice.expired") await runUnit(scene.deps, sandboxExpireInvoice, { merchantId: scene.input.merchantId, uuid: invoice.id });
  // More blocks for a transfer still short of its confirmations; the scan that follows each evaluates the invoice.
  const event = await driveUntilEvent(scene, invoice.id, () => mine(scene, 1).then(() => undefined));
  return { event, object: { kind: "invoice", id: invoice.id } };
}

function parseAssetAmount(scene: Scene, fallback: string): bigint {
  const text = scene.input.amount ?? fallback;
  const minor = parseAmount(text, scene.asset.decimals);
  if (minor === null || minor <= 0n) throw new CliError("cli.usage", `--amount must be a positive amount of ${scene.asset.symbol} with at most ${scene.asset.decimals} decimals`);
  return minor;
}

async function triggerWalletEvent(scene: Scene): Promise<TriggerOutcome> {
  const amount = parseAssetAmount(scene, "10");
  const wallet = await runUnit(scene.deps, createStaticWallet, { merchantId: scene.input.merchantId, input: { currency: scene.asset.symbol, network: scene.network, order_id: `trigger-${randomUUID()}` } });
  await deposit(scene, wallet.address, amount);
  // Wallet events are about the credited deposit: wait for any wallet.paid of this wallet's address.
  const transfer = await waitForTransfer(scene, wallet.address);
  const event = await driveUntilEvent(scene, transfer, () => mine(scene, 1).then(() => undefined));
  return { event, object: { kind: "wallet", id: wallet.id } };
}

async function waitForTransfer(scene: Scene, address: string): Promise<string> {
  for (;;) {
    const transfer = await scene.deps.db.chainTransfer.findFirst({ where: { network: scene.network, toAddress: address }, select: { id: true } });
    if (transfer) return transfer.id;
    if (Date.now() > scene.deadline) throw new CliError("cli.timeout", "the sandbox deposit was not seen by the watcher");
    await mine(scene, 1);
  }
}

async function triggerPayoutEvent(scene: Scene): Promise<TriggerOutcome> {
  const amount = formatAmount(parseAssetAmount(scene, "5"), scene.asset.decimals);
  const isManual = scene.input.type === "payout.pending" || scene.input.type === "payout.cancelled";
  const request = { amount, currency: scene.asset.symbol, network: scene.network, address: randomSandboxPayerAddress(scene.network), order_id: `trigger-${randomUUID()}`, source: isManual ? "manual" : "api" } as const;
  let fundedBy: string | undefined;
  let payout: Payout;
  try {
    payout = await runUnit(scene.deps, createPayout, { merchantId: scene.input.merchantId, input: request, actor: scene.input.actor });
  } catch (error) {
    if (!isAppError(error) || (error.code !== "payout.insufficient_funds" && error.code !== "payout.funds_maturing")) throw error;
    fundedBy = await fundMerchant(scene, amount);
    payout = await runUnit(scene.deps, createPayout, { merchantId: scene.input.merchantId, input: request, actor: scene.input.actor });
  }
  if (scene.input.type === "payout.cancelled") await runUnit(scene.deps, cancelPayout, { merchantId: scene.input.merchantId, lookup: { uuid: payout.id } });
  const sender = createSandboxSender(scene.deps.db, scene.network);
  const event = await driveUntilEvent(scene, payout.id, async () => {
    // One pass of the payout sender, as the worker runs it; mined blocks confirm what it sent.
    await sendPayouts(scene.deps, scene.network, sender);
    const sent = await scene.deps.db.payout.findUniqueOrThrow({ where: { id: payout.id }, select: { status: true } });
    if (sent.status === "sent" || sent.status === "broadcasting") await mine(scene, payoutConfirmations(scene.network));
  });
  return { event, object: { kind: "payout", id: payout.id }, fundedBy };
}

/**
 * Gives the merchant what a payout of `amount` needs: an invoice priced in the asset itself at
 * three times the amount (room for the platform's and the payout's fees), paid and matured.
 */
async function fundMerchant(scene: Scene, amount: string): Promise<string> {
  const price = formatAmount(parseAmount(amount, scene.asset.decimals)! * 3n, scene.asset.decimals);
  const invoice = await createSandboxInvoice(scene, { amount: price, currency: scene.asset.symbol });
  await payInvoice(scene, invoice, { numerator: 1n, denominator: 1n });
  for (;;) {
    const paid = await scene.deps.db.invoice.findUniqueOrThrow({ where: { id: invoice.id }, select: { isFinal: true } });
    if (paid.isFinal) break;
    if (Date.now() > scene.deadline) throw new CliError("cli.timeout", "the funding invoice was not paid in time");
    await mine(scene, 1);
  }
  await matureDueLots(scene.deps.db, scene.deps.now());
  return invoice.id;
}
