import { findNetwork, type NetworkId } from "@/lib/catalogue";
import { resolveNetworkStatus } from "@/lib/chains/network-sources";
import { mineSandboxBlocks, randomSandboxPayerAddress, submitSandboxTransaction } from "@/lib/chains/sandbox/sandbox-chain";
import { AppError } from "@/lib/errors";
import { getHostedInvoiceOrThrow } from "@/lib/services/invoices/hosted-invoice";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { assertSandboxEnabled, type SandboxDeps } from "./sandbox-operations";

const PAYABLE = new Set(["check", "wrong_amount_waiting", "confirm_check"]);

/**
 * The hosted page's "Pay with a sandbox wallet" (operator contract §3): `send` puts a
 * transaction for the amount still due into the sandbox mempool; `confirm` mines one block.
 * Public, like the page, and only for invoices whose network a sandbox chain serves. Answers the
 * network, for its entry point to let the watcher see it (lib/jobs/handlers/sandbox-chain).
 */
export async function paySandboxInvoice(deps: SandboxDeps, invoiceId: string, step: "send" | "confirm"): Promise<NetworkId> {
  assertSandboxEnabled(deps.config);
  const invoice = await getHostedInvoiceOrThrow(deps, invoiceId);
  if (!invoice.network || !invoice.address || !invoice.payerCurrency || !PAYABLE.has(invoice.status)) throw new AppError("pay.not_payable");
  const network = findNetwork(invoice.network)!;
  if (resolveNetworkStatus(network, deps.config).source !== "sandbox") throw new AppError("sandbox.not_sandbox");
  const now = deps.now();
  if (step === "send") {
    const due = toMinor(invoice.payerAmountMinor) - toMinor(invoice.amountPaidMinor);
    const inFlight = await deps.db.chainTransfer.aggregate({ where: { invoiceId, status: "seen" }, _sum: { amountMinor: true } });
    const remaining = due - toMinor(inFlight._sum.amountMinor);
    if (remaining <= 0n) throw new AppError("pay.not_payable", "The amount due is already on its way.");
    await submitSandboxTransaction(deps.db, {
      network: network.id as NetworkId,
      currency: invoice.payerCurrency,
      fromAddress: randomSandboxPayerAddress(network.id as NetworkId),
      toAddress: invoice.address,
      amountMinor: remaining,
      now,
    });
  } else {
    await mineSandboxBlocks(deps.db, network.id as NetworkId, 1, now);
  }
  return network.id as NetworkId;
}
