import type { Db, Tx } from "@/lib/db/client";
import { unitOf } from "@/lib/deps/unit-of-work";
import { roleAllows, type CabinetPermission, type CabinetRole } from "@/lib/domain/cabinet/permissions";
import { formatAmount } from "@/lib/domain/money/amount";
import { queueEmail } from "@/lib/email/outbox";
import { cabinetAlertEmail } from "@/lib/email/templates";
import { AppError } from "@/lib/errors";
import { findSettlementAsset } from "@/lib/catalogue";
import { parseAssetKey } from "@/lib/ledger/postings";
// The same rule as the overview's "Needs attention": an alert says what the page says.
import { ENDPOINT_FAILING_AFTER_MS } from "@/lib/services/overview/load-overview";

/**
 * E-mail alerts of what waits for a store, each kind chosen by a cabinet user for themself. An
 * alert goes out once per store and subject (a payout, an invoice, one failure of the endpoint, one
 * debt), to every member who chose its kind and whose role may act on it, whichever worker finds
 * it first: the sent row's key decides.
 */
export const ALERT_KINDS = ["payout_approval", "decision_needed", "endpoint_failing", "debt"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** What each kind is about, and the permission a member needs to receive it (to act on it). */
export const ALERT_TERMS: Record<AlertKind, { title: string; description: string; permission: CabinetPermission }> = {
  payout_approval: { title: "Payout awaiting approval", description: "A manual payout waits for a second user's approval.", permission: "money" },
  decision_needed: { title: "Decision needed", description: "A payment ended underpaid or overpaid and waits for accept or refund.", permission: "money" },
  endpoint_failing: { title: "Webhook endpoint failing", description: "Your webhook endpoint has not answered for over an hour.", permission: "read" },
  debt: { title: "Debt", description: "Your balance owes money in a coin (a reorganisation or a refund took more than was available).", permission: "read" },
};

export function isAlertKind(value: string): value is AlertKind {
  return (ALERT_KINDS as readonly string[]).includes(value);
}

/** How far back the alert pass looks: older subjects are the overview's matter, not an e-mail's. */
const LOOKBACK_MS = 7 * 86_400_000;
/** Subjects read per kind and pass: a backlog is worked off pass by pass. */
const SUBJECTS_PER_PASS = 200;

/** One thing to tell a store about, with its key (what makes it once) and the e-mail's lines. */
export interface DueAlert {
  merchantId: string;
  kind: AlertKind;
  subjectKey: string;
  lines: string[];
  /** A cabinet path the e-mail links to. */
  path: string;
}

/** The kinds a user receives. */
export async function listAlertKinds(db: Db, userId: string): Promise<AlertKind[]> {
  const rows = await db.cabinetAlertSubscription.findMany({ where: { userId }, select: { kind: true } });
  return ALERT_KINDS.filter((kind) => rows.some((row) => row.kind === kind));
}

/** Turns one kind on or off for the signed-in user; a kind their role cannot act on is `cabinet.forbidden`. */
export const setAlertKind = unitOf(async (tx, _deps, { userId, role, kind, isOn }: { userId: string; role: CabinetRole; kind: string; isOn: boolean }): Promise<{ kinds: AlertKind[] }> => {
  if (!isAlertKind(kind)) throw new AppError("cabinet.bad_request", `${kind} is not an alert.`);
  if (isOn && !roleAllows(role, ALERT_TERMS[kind].permission)) throw new AppError("cabinet.forbidden", "Your role cannot act on this alert.");
  if (isOn) await tx.cabinetAlertSubscription.createMany({ data: [{ userId, kind }], skipDuplicates: true });
  else await tx.cabinetAlertSubscription.deleteMany({ where: { userId, kind } });
  const rows = await tx.cabinetAlertSubscription.findMany({ where: { userId }, select: { kind: true } });
  return { kinds: ALERT_KINDS.filter((candidate) => rows.some((row) => row.kind === candidate)) };
});

/** Everything to tell that has not been told, for stores with at least one member who chose its kind. */
export async function findDueAlerts(db: Db, now: Date): Promise<DueAlert[]> {
  const since = new Date(now.getTime() - LOOKBACK_MS);
  const subscribed = (kind: AlertKind, merchantColumn: string) =>
    `EXISTS (SELECT 1 FROM cabinet_alert_subscriptions s JOIN cabinet_users u ON u.id = s.user_id WHERE s.kind = '${kind}' AND u.merchant_id = ${merchantColumn} AND u.disabled_at IS NULL)`;
  const notSent = (kind: AlertKind, merchantColumn: string, key: string) =>
    `NOT EXISTS (SELECT 1 FROM cabinet_alerts_sent a WHERE a.merchant_id = ${merchantColumn} AND a.kind = '${kind}' AND a.subject_key = ${key})`;

  const [payouts, decisions, endpoints, debts] = await Promise.all([
    db.$queryRawUnsafe<{ merchant_id: string; id: string; order_id: string; amount: string; currency: string; network: string }[]>(
      `SELECT p.merchant_id::text, p.id::text, p.order_id, p.amount_minor::text AS amount, p.currency, p.network FROM payouts p
       WHERE p.status = 'pending' AND p.source = 'manual' AND p.created_at >= $1
         AND ${subscribed("payout_approval", "p.merchant_id")} AND ${notSent("payout_approval", "p.merchant_id", "'payout:' || p.id::text")}
       ORDER BY p.created_at LIMIT ${SUBJECTS_PER_PASS}`,
      since,
    ),
    db.$queryRawUnsafe<{ merchant_id: string; id: string; order_id: string | null; status: string }[]>(
      `SELECT i.merchant_id::text, i.id::text, i.order_id, i.status FROM invoices i
       WHERE i.status IN ('wrong_amount', 'paid_over') AND i.resolution IS NULL AND i.final_at >= $1
         AND ${subscribed("decision_needed", "i.merchant_id")} AND ${notSent("decision_needed", "i.merchant_id", "'invoice:' || i.id::text")}
       ORDER BY i.final_at LIMIT ${SUBJECTS_PER_PASS}`,
      since,
    ),
    // The oldest delivery to the registered endpoint still retrying, with nothing delivered to it since.
    db.$queryRawUnsafe<{ merchant_id: string; url: string; since: Date; retrying: number }[]>(
      `SELECT f.merchant_id::text, f.url, f.since, f.retrying FROM (
         SELECT d.merchant_id, d.url, min(d.created_at) AS since, count(*)::int AS retrying
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.merchant_id = d.merchant_id AND e.url = d.url
         WHERE d.target = 'endpoint' AND d.status = 'pending' AND d.attempts > 0 AND d.created_at >= $1
         GROUP BY d.merchant_id, d.url) f
       WHERE f.since <= $2
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries ok WHERE ok.merchant_id = f.merchant_id AND ok.url = f.url AND ok.delivered_at > f.since)
         AND ${subscribed("endpoint_failing", "f.merchant_id")}
         AND ${notSent("endpoint_failing", "f.merchant_id", "'endpoint:' || (extract(epoch FROM f.since) * 1000)::bigint::text")}
       LIMIT ${SUBJECTS_PER_PASS}`,
      since,
      new Date(now.getTime() - ENDPOINT_FAILING_AFTER_MS),
    ),
    db.$queryRawUnsafe<{ merchant_id: string; asset: string; owed: string }[]>(
      `SELECT l.owner AS merchant_id, l.asset, (-l.balance)::text AS owed FROM ledger_accounts l
       WHERE l.bucket = 'debt' AND l.balance < 0 AND l.owner <> 'platform'
         AND ${subscribed("debt", "l.owner::uuid")} AND ${notSent("debt", "l.owner::uuid", "'debt:' || l.asset")}
       LIMIT ${SUBJECTS_PER_PASS}`,
    ),
  ]);

  return [
    ...payouts.map((payout): DueAlert => {
      const decimals = findSettlementAsset(payout.currency, payout.network)?.decimals ?? 0;
      return {
        merchantId: payout.merchant_id,
        kind: "payout_approval",
        subjectKey: `payout:${payout.id}`,
        lines: [`A manual payout of ${formatAmount(BigInt(payout.amount), decimals)} ${payout.currency} (order ${payout.order_id}) waits for a second user's approval.`],
        path: `/cabinet/payouts/${payout.id}`,
      };
    }),
    ...decisions.map((invoice): DueAlert => ({
      merchantId: invoice.merchant_id,
      kind: "decision_needed",
      subjectKey: `invoice:${invoice.id}`,
      lines: [`Invoice ${invoice.order_id ?? invoice.id} ended ${invoice.status === "paid_over" ? "overpaid" : "underpaid"}: accept it as it is, or refund.`],
      path: `/cabinet/invoices/${invoice.id}#decision`,
    })),
    ...endpoints.map((endpoint): DueAlert => ({
      merchantId: endpoint.merchant_id,
      kind: "endpoint_failing",
      subjectKey: `endpoint:${endpoint.since.getTime()}`,
      lines: [`Your webhook endpoint ${endpoint.url} has not accepted a delivery since ${endpoint.since.toUTCString()}: ${endpoint.retrying} deliver${endpoint.retrying === 1 ? "y is" : "ies are"} retrying.`],
      path: "/cabinet/webhooks?status=retrying#deliveries",
    })),
    ...debts.map((debt): DueAlert => {
      const { symbol, network } = parseAssetKey(debt.asset);
      const decimals = findSettlementAsset(symbol, network)?.decimals ?? 0;
      return {
        merchantId: debt.merchant_id,
        kind: "debt",
        subjectKey: `debt:${debt.asset}`,
        lines: [`Your balance owes ${formatAmount(BigInt(debt.owed), decimals)} ${symbol} on ${network}. It is paid back from the next funds that become available.`],
        path: "/cabinet#balances",
      };
    }),
  ];
}

/**
 * Records an alert as sent and queues its e-mails, in one transaction: a second worker finding the
 * same alert inserts nothing and sends nothing. Answers how many e-mails were queued (0 when it was
 * sent already, or nobody who chose it may receive it now).
 */
export const sendAlert = unitOf(async (tx, deps, alert: DueAlert): Promise<number> => {
  const now = deps.now();
  const inserted = await tx.$executeRaw`
    INSERT INTO cabinet_alerts_sent (merchant_id, kind, subject_key, created_at)
    VALUES (${alert.merchantId}::uuid, ${alert.kind}, ${alert.subjectKey}, ${now}) ON CONFLICT DO NOTHING`;
  if (inserted === 0) return 0;
  const recipients = await recipientsOf(tx, alert.merchantId, alert.kind);
  const email = cabinetAlertEmail({ title: ALERT_TERMS[alert.kind].title, lines: alert.lines, url: new URL(alert.path, deps.config.publicBaseUrl).toString() });
  for (const recipient of recipients) await queueEmail(tx, deps.config, { merchantId: alert.merchantId, recipient, ...email }, now);
  return recipients.length;
});

/** The e-mail addresses of the store's active members who chose the kind and whose role may act on it. */
async function recipientsOf(tx: Tx, merchantId: string, kind: AlertKind): Promise<string[]> {
  const members = await tx.cabinetUser.findMany({
    where: { merchantId, disabledAt: null, alertSubscriptions: { some: { kind } } },
    select: { email: true, role: true },
    orderBy: { email: "asc" },
  });
  return members.filter((member) => roleAllows(member.role as CabinetRole, ALERT_TERMS[kind].permission)).map((member) => member.email);
}

/** A debt paid back can be told again when it comes back: its sent row goes once the account is clear. */
export async function forgetSettledDebts(db: Db): Promise<number> {
  return db.$executeRaw`
    DELETE FROM cabinet_alerts_sent a WHERE a.kind = 'debt'
      AND NOT EXISTS (SELECT 1 FROM ledger_accounts l WHERE l.owner = a.merchant_id::text AND l.bucket = 'debt' AND l.asset = substr(a.subject_key, 6) AND l.balance < 0)`;
}
