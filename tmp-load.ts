import { runLoad } from "@/bench/load";
import { createInvoiceTarget, signedReadTarget } from "@/bench/load";
const [baseUrl, publicId, secret, kind, seconds] = process.argv.slice(2);
const key = { public_id: publicId, secret };
const target = kind === "read" ? signedReadTarget(baseUrl, key) : createInvoiceTarget(baseUrl, key);
const result = await runLoad(target, { concurrency: 50, seconds: Number(seconds ?? 15), warmupSeconds: 3 });
console.log(JSON.stringify(result));
