import { runLoad, createInvoiceTarget, signedReadTarget, signedHeaders } from "@/bench/load";
const [baseUrl, publicId, secret, kind, seconds] = process.argv.slice(2);
const key = { public_id: publicId, secret };
async function post(path: string, body: unknown) {
  const text = JSON.stringify(body);
  const response = await fetch(baseUrl + path, { method: "POST", headers: signedHeaders(key, path, text), body: text });
  return (await response.json()) as any;
}
if (kind === "batch") {
  const started = performance.now();
  const payments = Array.from({ length: 5000 }, (_, i) => ({ amount: "25.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: `bench-${i}` }));
  const batchId = (await post("/v1/payment/batch", { payments })).result.batch_id;
  for (;;) {
    const info = (await post("/v1/batch/info", { batch_id: batchId, limit: 1 })).result;
    if (info.status === "completed") { console.log(JSON.stringify({ requests: 5000, seconds: (performance.now() - started) / 1000, succeeded: info.succeeded })); break; }
    await new Promise((r) => setTimeout(r, 250));
  }
} else {
  const target = kind === "read" ? signedReadTarget(baseUrl, key) : createInvoiceTarget(baseUrl, key);
  const result = await runLoad(target, { concurrency: 50, seconds: Number(seconds ?? 15), warmupSeconds: 3 });
  console.log(JSON.stringify(result));
}
