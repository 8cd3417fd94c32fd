/**
 * The body of a derivation thread (see derivation-threads.ts): derives deposit addresses from an
 * account xpub and renders their QR codes, off the thread that answers requests. Public key
 * material only: the seed never crosses to this thread.
 */
import { parentPort } from "node:worker_threads";
import { deriveDepositAddresses } from "./derive-address";
import { renderQrCode } from "./qr-code";
import type { DerivationReply, DerivationRequest } from "./derivation-threads";

parentPort!.on("message", async (request: DerivationRequest) => {
  let reply: DerivationReply;
  try {
    const derived = deriveDepositAddresses(request);
    const addresses = derived.map((entry) => entry.address);
    reply = { id: request.id, addresses, qrCodes: await Promise.all(addresses.map(renderQrCode)) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
