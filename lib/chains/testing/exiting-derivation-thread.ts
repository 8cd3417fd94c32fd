/** A derivation thread body that ends its thread on the first job it gets (see derivation-threads.test.ts). */
import { parentPort } from "node:worker_threads";

parentPort!.once("message", () => process.exit(1));
