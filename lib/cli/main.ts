import { parseArgs } from "node:util";
import { ensurePrismaClient } from "@/lib/runtime/prepare";

const USAGE = `Usage: npm run --silent gateway -- <command> [options]

Commands:
  merchant create --name <name> [--email <e> --password <p>] [--json]
  merchant set-fee --merchant <merchant_id> [--percent <p>] [--fixed-usd <amount>] [--json]
                           platform fee override for new invoices (default 1.5 % + 0.30 USD)
  key create --merchant <merchant_id> --kind unified|payment|payout [--json]
  key revoke --public-id <id> [--json]
  db migrate [--json]
  errors [--json]          the error catalogue: code, HTTP status, default message
  mailbox [--json]         the e-mails kept locally (no SMTP_URL), newest first
  ledger audit [--json]    checks the books against themselves and the state they pay for;
                           exits 1 when it finds drift
  compliance block --address <a> [--network <id>] [--reason <text>] [--json]
                           refuses payouts, refunds and claims to the address (on one network,
                           or on every network without --network)
  compliance unblock --address <a> [--network <id>] [--json]
  compliance list [--json]

The CLI uses DATABASE_URL, or the embedded database under GATEWAY_DATA_DIR (default ./.data):
the running service's, if it is up, else it opens the files itself.`;

class UsageError extends Error {}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (argv.includes("--json")) process.stdout.write(JSON.stringify({ error: { message } }) + "\n");
    process.stderr.write(`${message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  return runCommand(values, positionals);
}

function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      name: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      merchant: { type: "string" },
      kind: { type: "string" },
      "public-id": { type: "string" },
      percent: { type: "string" },
      "fixed-usd": { type: "string" },
      address: { type: "string" },
      network: { type: "string" },
      reason: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
}

async function runCommand(values: ReturnType<typeof parseCommandLine>["values"], positionals: string[]): Promise<number> {
  const isJson = values.json === true;
  const print = (object: Record<string, unknown>, text: string) => {
    process.stdout.write(isJson ? JSON.stringify(object) + "\n" : text + "\n");
  };
  const command = positionals.join(" ");
  if (values.help || command === "") {
    process.stderr.write(USAGE + "\n");
    return values.help ? 0 : 2;
  }

  if (command === "errors") {
    const { ERROR_CATALOGUE } = await import("@/lib/errors");
    const errors = Object.entries(ERROR_CATALOGUE).map(([code, entry]) => ({ code, status: entry.status, message: entry.message }));
    print({ errors }, errors.map((entry) => `${entry.code.padEnd(32)} ${entry.status}  ${entry.message}`).join("\n"));
    return 0;
  }

  ensurePrismaClient();
  const { openCliDatabase } = await import("./open-database");
  const { isApiKeyKind, issueApiKey, revokeApiKey } = await import("@/lib/auth/api-keys");
  const { createMerchant } = await import("@/lib/services/merchants/create-merchant");
  const { getSecretBox } = await import("@/lib/crypto/master-key");

  try {
    switch (command) {
      case "merchant create": {
        const database = await openCliDatabase();
        try {
          const created = await createMerchant(
            { db: database.db, secretBox: getSecretBox() },
            { name: required(values, "name"), email: values.email, password: values.password },
          );
          print(
            { merchant_id: created.merchantId, public_id: created.apiKey.publicId, secret: created.apiKey.secret },
            `merchant_id: ${created.merchantId}\npublic_id:   ${created.apiKey.publicId}\nsecret:      ${created.apiKey.secret}\n(the secret is shown once; store it now)`,
          );
        } finally {
          await database.close();
        }
        return 0;
      }
      case "merchant set-fee": {
        const merchantId = required(values, "merchant");
        if (!isUuid(merchantId)) throw new UsageError(`No merchant ${merchantId}`);
        const { formatAmount, parseAmount } = await import("@/lib/domain/money/amount");
        const { formatPercentBps } = await import("@/lib/domain/fees/platform-fee");
        const percentBps = values.percent === undefined ? undefined : parseAmount(values.percent, 2);
        const fixedUsdMinor = values["fixed-usd"] === undefined ? undefined : parseAmount(values["fixed-usd"], 2);
        if (percentBps === null || (percentBps !== undefined && percentBps > 10_000n)) throw new UsageError("--percent must be from 0 to 100 with at most 2 decimals");
        if (fixedUsdMinor === null) throw new UsageError("--fixed-usd must be a decimal amount with at most 2 decimals");
        const database = await openCliDatabase();
        try {
          const { count } = await database.db.merchant.updateMany({
            where: { id: merchantId },
            data: {
              ...(percentBps !== undefined ? { feePercentBps: Number(percentBps) } : {}),
              ...(fixedUsdMinor !== undefined ? { feeFixedUsdMinor: fixedUsdMinor.toString() } : {}),
            },
          });
          if (count === 0) throw new UsageError(`No merchant ${merchantId}`);
          const merchant = await database.db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { feePercentBps: true, feeFixedUsdMinor: true } });
          const percent = merchant.feePercentBps === null ? null : formatPercentBps(merchant.feePercentBps);
          const fixed = merchant.feeFixedUsdMinor === null ? null : formatAmount(BigInt(merchant.feeFixedUsdMinor.toFixed()), 2, 2);
          print({ merchant_id: merchantId, fee_percent: percent, fee_fixed_usd: fixed }, `fee: ${percent ?? "default"} % + ${fixed ?? "default"} USD`);
        } finally {
          await database.close();
        }
        return 0;
      }
      case "key create": {
        const kind = required(values, "kind");
        if (!isApiKeyKind(kind)) throw new UsageError("--kind must be unified, payment or payout");
        const merchantId = required(values, "merchant");
        const database = await openCliDatabase();
        try {
          if (!isUuid(merchantId) || !(await database.db.merchant.findUnique({ where: { id: merchantId }, select: { id: true } }))) {
            throw new UsageError(`No merchant ${merchantId}`);
          }
          const key = await issueApiKey(database.db, getSecretBox(), merchantId, kind);
          print(
            { public_id: key.publicId, secret: key.secret, kind: key.kind },
            `public_id: ${key.publicId}\nsecret:    ${key.secret}\nkind:      ${key.kind}\n(the secret is shown once; store it now)`,
          );
        } finally {
          await database.close();
        }
        return 0;
      }
      case "key revoke": {
        const publicId = required(values, "public-id");
        const database = await openCliDatabase();
        try {
          if (!(await revokeApiKey(database.db, publicId, new Date()))) throw new UsageError(`No active key ${publicId}`);
          print({ revoked: true }, `revoked ${publicId}`);
        } finally {
          await database.close();
        }
        return 0;
      }
      case "mailbox": {
        const database = await openCliDatabase();
        try {
          const messages = await database.db.outboundEmail.findMany({ orderBy: { createdAt: "desc" }, take: 50 });
          const view = messages.map((message) => ({
            id: message.id,
            to: message.recipient,
            subject: message.subject,
            status: message.status,
            created_at: message.createdAt.toISOString(),
            text: message.text,
          }));
          print({ messages: view }, view.map((message) => `${message.created_at}  ${message.status.padEnd(7)} ${message.to}\n  ${message.subject}\n  ${message.text.replace(/\n/g, "\n  ")}`).join("\n") || "(no messages)");
        } finally {
          await database.close();
        }
        return 0;
      }
      case "ledger audit": {
        const database = await openCliDatabase();
        try {
          const { auditLedger, isCleanAudit } = await import("@/lib/ledger/audit");
          const { countOpenInvoiceReviews } = await import("@/lib/services/invoices/invoice-reviews");
          const audit = await auditLedger(database.db);
          const isClean = isCleanAudit(audit);
          const report = {
            clean: isClean,
            mismatched: audit.mismatched.map((row) => ({ account_id: row.accountId, cached: row.cached.toString(), from_postings: row.fromPostings.toString() })),
            negative: audit.negative,
            unbalanced_journals: audit.unbalancedJournals,
            transfers_vs_credits: audit.transfersVsCredits,
            settled_vs_journals: audit.settledVsJournals,
            lots_vs_maturing: audit.lotsVsMaturing,
            outgoing_vs_fees: audit.outgoingVsFees,
            payouts_vs_held: audit.payoutsVsHeld,
            payouts_vs_journals: audit.payoutsVsJournals,
            payouts_vs_transfers: audit.payoutsVsTransfers,
            refunds_vs_paid: audit.refundsVsPaid,
            splits_vs_held: audit.splitsVsHeld,
            blocked_vs_held: audit.blockedVsHeld,
            invoices_in_review: await countOpenInvoiceReviews(database.db),
          };
          const found = Object.entries(audit).filter(([, list]) => list.length > 0);
          print(report, isClean ? "the ledger is clean" : found.map(([check, list]) => `${check}: ${list.length}`).join("\n"));
          return isClean ? 0 : 1;
        } finally {
          await database.close();
        }
      }
      case "compliance block":
      case "compliance unblock":
      case "compliance list": {
        const { blockAddress, listBlockedAddresses, unblockAddress } = await import("@/lib/services/compliance/screening");
        const database = await openCliDatabase();
        try {
          if (command === "compliance list") {
            const blocked = await listBlockedAddresses(database.db);
            print({ blocked }, blocked.map((row) => `${row.network.padEnd(10)} ${row.address}  ${row.reason}`).join("\n") || "(the deny list is empty)");
          } else if (command === "compliance block") {
            let blocked;
            try {
              blocked = await blockAddress(database.db, { address: required(values, "address"), network: values.network, reason: values.reason });
            } catch (error) {
              throw error instanceof UsageError ? error : new UsageError(error instanceof Error ? error.message : String(error));
            }
            print({ blocked }, `blocked ${blocked.address} on ${blocked.network === "*" ? "every network" : blocked.network}`);
          } else {
            const isRemoved = await unblockAddress(database.db, { address: required(values, "address"), network: values.network });
            if (!isRemoved) throw new UsageError(`${values.address} is not on the deny list${values.network ? ` for ${values.network}` : ""}`);
            print({ unblocked: true }, `unblocked ${values.address}`);
          }
        } finally {
          await database.close();
        }
        return 0;
      }
      case "db migrate": {
        const database = await openCliDatabase();
        await database.close();
        print({ migrated: true }, "database is up to date");
        return 0;
      }
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (isJson) process.stdout.write(JSON.stringify({ error: { message } }) + "\n");
    process.stderr.write(`${message}\n`);
    if (error instanceof UsageError) process.stderr.write(`\n${USAGE}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
    process.exit(1);
  },
);
