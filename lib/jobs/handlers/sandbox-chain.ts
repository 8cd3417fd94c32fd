import type { Invoice } from "@/generated/prisma/client";
import type { NetworkId } from "@/lib/catalogue";
import { createSandboxAdapter } from "@/lib/chains/sandbox/sandbox-chain";
import { sandboxDeposit, sandboxMine, type SandboxDeps } from "@/lib/services/sandbox/sandbox-operations";
import { paySandboxInvoice } from "@/lib/services/sandbox/sandbox-wallet";
import { scanNetwork } from "./scan-networks";

/**
 * The sandbox's chain actions as their callers see them (the API's sandbox operations, the hosted
 * page's sandbox wallet, the CLI's trigger): the action on the sandbox chain, then a watcher pass
 * over its network, so that what happened is recorded (and its webhooks queued) before the answer.
 */

async function scanSandboxNetwork(deps: SandboxDeps, network: NetworkId): Promise<void> {
  await scanNetwork(deps, createSandboxAdapter(deps.db, network));
}

/** `POST /v1/sandbox/deposit`. */
export async function depositOnSandbox(deps: SandboxDeps, input: Parameters<typeof sandboxDeposit>[1]): Promise<{ txid: string }> {
  const { txid, network } = await sandboxDeposit(deps, input);
  await scanSandboxNetwork(deps, network);
  return { txid };
}

/** `POST /v1/sandbox/mine`. */
export async function mineOnSandbox(deps: SandboxDeps, input: Parameters<typeof sandboxMine>[1]): Promise<{ height: number }> {
  const { height, network } = await sandboxMine(deps, input);
  await scanSandboxNetwork(deps, network);
  return { height };
}

/** `POST /v1/pay/{id}/sandbox-pay`: the invoice after the step was seen. */
export async function payWithSandboxWallet(deps: SandboxDeps, invoiceId: string, step: "send" | "confirm"): Promise<Invoice> {
  await scanSandboxNetwork(deps, await paySandboxInvoice(deps, invoiceId, step));
  return deps.db.invoice.findUniqueOrThrow({ where: { id: invoiceId } });
}
