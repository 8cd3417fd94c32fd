/**
 * The body of a derivation thread (see derivation-threads.ts): derives deposit addresses from an
 * account xpub and renders their QR codes, off the thread that answers requests. Public key
 * material only: the seed never crosses to this thread.
 */
import { parentPort } from "node:worker_threads";
import type { DerivationReply, DerivationRequest } from "./derivation-threads";
import { deriveXpubAddressesWithQrCodes } from "./derive-with-qr-codes";

parentPort!.on("message", async (request: DerivationRequest) => {
  let reply: DerivationReply;
  try {
    reply = { id: request.id, ...(await deriveXpubAddressesWithQrCodes(request)) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
