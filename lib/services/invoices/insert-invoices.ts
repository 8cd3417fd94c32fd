import { Prisma, type Invoice } from "@/generated/prisma/client";
import type { Db, Tx } from "@/lib/db/client";
import { queryRows } from "@/lib/db/direct-query";

/**
 * Each field of an invoice: its column and PostgreSQL type. Typed against Prisma's Invoice, so a
 * field added to the model fails the type check until it is named here.
 */
const INVOICE_COLUMNS: { readonly [Field in keyof Invoice]: readonly [column: string, type: string] } = {
  id: ["id", "uuid"],
  merchantId: ["merchant_id", "uuid"],
  orderId: ["order_id", "text"],
  status: ["status", "text"],
  isFinal: ["is_final", "boolean"],
  priceCurrency: ["price_currency", "text"],
  priceAmountMinor: ["price_amount_minor", "numeric"],
  payerCurrency: ["payer_currency", "text"],
  network: ["network", "text"],
  address: ["address", "text"],
  addressIndex: ["address_index", "integer"],
  rate: ["rate", "text"],
  rateSource: ["rate_source", "text"],
  rateExpiresAt: ["rate_expires_at", "timestamptz"],
  payerAmountMinor: ["payer_amount_minor", "numeric"],
  amountPaidMinor: ["amount_paid_minor", "numeric"],
  settledMinor: ["settled_minor", "numeric"],
  feePercentBps: ["fee_percent_bps", "integer"],
  feeFixedUsdMinor: ["fee_fixed_usd_minor", "numeric"],
  feeFixedAssetMinor: ["fee_fixed_asset_minor", "numeric"],
  accuracyBps: ["accuracy_bps", "integer"],
  subtractPercent: ["subtract_percent", "integer"],
  isPaymentMultiple: ["is_payment_multiple", "boolean"],
  lifetimeSeconds: ["lifetime_seconds", "integer"],
  expiresAt: ["expires_at", "timestamptz"],
  confirmations: ["confirmations", "integer"],
  requiredConfirmations: ["required_confirmations", "integer"],
  priceUsdMinor: ["price_usd_minor", "numeric"],
  txid: ["txid", "text"],
  payerAddress: ["payer_address", "text"],
  urlCallback: ["url_callback", "text"],
  urlReturn: ["url_return", "text"],
  urlSuccess: ["url_success", "text"],
  additionalData: ["additional_data", "text"],
  payerEmail: ["payer_email", "text"],
  theme: ["theme", "text"],
  settlements: ["settlements", "integer"],
  resolution: ["resolution", "text"],
  finalAt: ["final_at", "timestamptz"],
  createdAt: ["created_at", "timestamptz"],
  updatedAt: ["updated_at", "timestamptz"],
  paymentLinkId: ["payment_link_id", "uuid"],
};

/** The whole row, each column under its field's name: what Prisma's own reads return. */
const RETURNING = Object.entries(INVOICE_COLUMNS)
  .map(([field, [column]]) => `"${column}" AS "${field}"`)
  .join(", ");

/** The fields held in numeric columns: Prisma's reads answer them as Decimal. */
const DECIMAL_FIELDS = (Object.keys(INVOICE_COLUMNS) as (keyof Invoice)[]).filter((field) => INVOICE_COLUMNS[field][1] === "numeric");

/** The row with its numeric columns as Decimal, as Prisma reads them (the driver answers strings outside a transaction). */
function withDecimals(invoice: Invoice): Invoice {
  const row = invoice as unknown as Record<string, unknown>;
  for (const field of DECIMAL_FIELDS) {
    const value = row[field];
    if (value !== null && !(value instanceof Prisma.Decimal)) row[field] = new Prisma.Decimal(value as string);
  }
  return invoice;
}

/** A new invoice's values: what `invoice.createMany` takes (columns left out take their defaults). */
export type NewInvoiceRow = Prisma.InvoiceCreateManyInput;

/** A value as one element of a PostgreSQL array parameter (dates and decimals as text, cast by the statement). */
function toArrayElement(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && "toFixed" in value) return (value as { toFixed(): string }).toFixed();
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** The statement for one set of columns, kept: its text is the same for every call with those columns. */
const statements = new Map<string, string>();

function insertStatement(fields: readonly (keyof Invoice)[]): string {
  const key = fields.join(",");
  let statement = statements.get(key);
  if (!statement) {
    const columns = fields.map((field) => `"${INVOICE_COLUMNS[field][0]}"`).join(", ");
    const arrays = fields.map((field, position) => `$${position + 1}::${INVOICE_COLUMNS[field][1]}[]`).join(", ");
    statement = `INSERT INTO invoices (${columns}) SELECT * FROM unnest(${arrays}) RETURNING ${RETURNING}`;
    statements.set(key, statement);
  }
  return statement;
}

/**
 * Inserts invoices in one statement and returns them as Prisma's reads do, in the rows' order.
 * One column per array parameter: the statement's text depends only on which fields are given,
 * and the work per row is the database's, not a query compiler's (Prisma's `create` spends about
 * a millisecond of CPU on each invoice). Every row must give the same fields.
 */
export async function insertInvoices(db: Db | Tx, rows: readonly NewInvoiceRow[]): Promise<Invoice[]> {
  if (rows.length === 0) return [];
  const fields = givenFields(rows[0]);
  const signature = fields.join(",");
  if (!rows.every((row) => givenFields(row).join(",") === signature)) throw new Error("insertInvoices: every row must give the same fields");
  const unknown = fields.find((field) => !(field in INVOICE_COLUMNS));
  if (unknown) throw new Error(`insertInvoices: ${unknown} is not an invoice field`);
  const columns = fields.map((field) => rows.map((row) => toArrayElement(row[field as keyof NewInvoiceRow])));
  const inserted = await queryRows<Invoice>(db, insertStatement(fields), columns);
  const byId = new Map(inserted.map((invoice) => [invoice.id, withDecimals(invoice)]));
  return rows.map((row) => byId.get(row.id)!);
}

/** Inserts one invoice (see insertInvoices). */
export async function insertInvoice(db: Db | Tx, row: NewInvoiceRow): Promise<Invoice> {
  const [invoice] = await insertInvoices(db, [row]);
  return invoice;
}

/** The fields a row gives (not undefined), sorted: rows with the same ones share a statement. */
export function givenFields(row: NewInvoiceRow): (keyof Invoice)[] {
  return (Object.keys(row) as (keyof NewInvoiceRow)[]).filter((field) => row[field] !== undefined).sort() as (keyof Invoice)[];
}
