import { randomUUID } from "node:crypto";
import http from "node:http";
import { encode } from "next-auth/jwt";
import pg from "pg";

export interface RenderFigure {
  label: string;
  samples: number;
  p50Ms: number;
  p99Ms: number;
}

/** The secret the bench's service signs cabinet cookies with (NEXTAUTH_SECRET), so the bench can make one. */
export const BENCH_SESSION_SECRET = "bench-cabinet-session-secret";

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

function get(url: string, cookie: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie } }, (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      })
      .on("error", reject);
  });
}

/** Sequential renders (one at a time: the figure is the server's render time, not throughput). */
async function timeRenders(label: string, url: string, cookie: string, samples: number): Promise<RenderFigure> {
  for (let warm = 0; warm < 3; warm++) await get(url, cookie);
  const times: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    const { status, ms } = await get(url, cookie);
    if (status !== 200) throw new Error(`${url} answered ${status}`);
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { label, samples, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99) };
}

/** A signed-in session for the cabinet user with this e-mail: a session row and the next-auth cookie naming it. */
async function sessionCookie(client: pg.Client, email: string): Promise<string> {
  const user = await client.query<{ id: string }>("SELECT id FROM cabinet_users WHERE email = $1", [email]);
  const sessionId = randomUUID();
  await client.query("INSERT INTO cabinet_sessions (id, user_id, expires_at) VALUES ($1, $2, now() + interval '12 hours')", [sessionId, user.rows[0].id]);
  const token = await encode({ token: { sid: sessionId, uid: user.rows[0].id }, secret: BENCH_SESSION_SECRET });
  return `next-auth.session-token=${token}`;
}

/**
 * Copies one invoice of the merchant `count` times in one statement: two in three paid (final at a
 * moment spread over the last 90 days), the rest expired; each with its own order id and address.
 */
async function fillInvoices(client: pg.Client, merchantId: string, count: number): Promise<void> {
  const columns = (await client.query<{ column_name: string }>("SELECT column_name FROM information_schema.columns WHERE table_name = 'invoices' AND table_schema = current_schema()")).rows.map(
    (row) => row.column_name,
  );
  const overrides: Record<string, string> = {
    id: "gen_random_uuid()",
    order_id: "'bench-fill-' || g",
    address: "'bench-fill-' || g",
    status: "CASE WHEN g % 3 = 0 THEN 'cancel' ELSE 'paid' END",
    created_at: "now() - (g % 129600) * interval '1 minute'",
    final_at: "now() - (g % 129600) * interval '1 minute' + interval '5 minutes'",
    updated_at: "now() - (g % 129600) * interval '1 minute' + interval '5 minutes'",
  };
  const select = columns.map((column) => overrides[column] ?? `t."${column}"`).join(", ");
  await client.query(
    `INSERT INTO invoices (${columns.map((column) => `"${column}"`).join(", ")})
     SELECT ${select} FROM (SELECT * FROM invoices WHERE merchant_id = $1 AND network = 'tron' LIMIT 1) t, generate_series(1, ${count}) g`,
    [merchantId],
  );
  await client.query("ANALYZE invoices");
}

/**
 * The overview page's server render time for a store with `invoiceCount` invoices, beside the same
 * page for a store with a handful: how the page scales with the books.
 */
export async function measureOverviewRender(
  baseUrl: string,
  databaseUrl: string,
  stores: { busy: { merchantId: string; email: string }; quiet: { email: string } },
  invoiceCount: number,
): Promise<{ busy: RenderFigure; quiet: RenderFigure }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await fillInvoices(client, stores.busy.merchantId, invoiceCount);
    const [busyCookie, quietCookie] = [await sessionCookie(client, stores.busy.email), await sessionCookie(client, stores.quiet.email)];
    const quiet = await timeRenders("overview, a store with a few invoices", `${baseUrl}/cabinet?period=90d`, quietCookie, 30);
    const busy = await timeRenders(`overview, a store with ${invoiceCount.toLocaleString("en")} invoices`, `${baseUrl}/cabinet?period=90d`, busyCookie, 30);
    return { busy, quiet };
  } finally {
    await client.end();
  }
}
