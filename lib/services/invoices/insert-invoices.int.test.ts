import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { withTransaction } from "@/lib/db/transaction";
import { getTestDb, makeMerchant } from "@/lib/testing/harness";
import { insertInvoiceCoalesced } from "@/lib/api/invoice-work";
import { insertInvoice, insertInvoices, type NewInvoiceRow } from "./insert-invoices";

function newRow(merchantId: string, overrides: Partial<NewInvoiceRow> = {}): NewInvoiceRow {
  const now = new Date();
  return {
    id: randomUUID(),
    merchantId,
    orderId: null,
    status: "check",
    priceCurrency: "USD",
    priceAmountMinor: "2500",
    payerCurrency: "USDT",
    network: "tron",
    address: `T${randomUUID().replace(/-/g, "").slice(0, 33)}`,
    addressIndex: 7,
    rate: "1.0001",
    rateSource: "fixed",
    rateExpiresAt: new Date(now.getTime() + 600_000),
    payerAmountMinor: "123456789012345678901234567890",
    feePercentBps: 150,
    feeFixedUsdMinor: "30",
    feeFixedAssetMinor: null,
    accuracyBps: 0,
    subtractPercent: 0,
    isPaymentMultiple: true,
    lifetimeSeconds: 3600,
    expiresAt: new Date(now.getTime() + 3_600_000),
    requiredConfirmations: 19,
    priceUsdMinor: "2500",
    urlCallback: null,
    urlReturn: "https://shop.example/cart",
    urlSuccess: null,
    additionalData: "note \" with ' quotes",
    payerEmail: null,
    theme: "dark",
    createdAt: now,
    updatedAt: now,
    paymentLinkId: null,
    ...overrides,
  };
}

describe("inserting invoices in one statement", () => {
  it("returns each invoice exactly as Prisma reads it back: types, defaults, large decimals", async () => {
    const merchant = await makeMerchant();
    const inserted = await insertInvoice(getTestDb(), newRow(merchant.merchantId));
    const read = await getTestDb().invoice.findUniqueOrThrow({ where: { id: inserted.id } });
    expect(inserted).toEqual(read);
    // Columns the row left out took their defaults.
    expect(read.amountPaidMinor.toFixed()).toBe("0");
    expect(read).toMatchObject({ isFinal: false, confirmations: 0, txid: "", payerAddress: "", settlements: 0 });
    expect(read.payerAmountMinor?.toFixed()).toBe("123456789012345678901234567890");
  });

  it("answers the same inside a transaction (Prisma's raw path) as outside it (the driver's)", async () => {
    const merchant = await makeMerchant();
    const inserted = await withTransaction(getTestDb(), (tx) => insertInvoice(tx, newRow(merchant.merchantId, { feeFixedAssetMinor: "42" })));
    const read = await getTestDb().invoice.findUniqueOrThrow({ where: { id: inserted.id } });
    expect(inserted).toEqual(read);
    expect(inserted.feeFixedAssetMinor?.toFixed()).toBe("42");
  });

  it("inserts many rows and answers them in the rows' order", async () => {
    const merchant = await makeMerchant();
    const rows = Array.from({ length: 40 }, (_, index) => newRow(merchant.merchantId, { orderId: `order-${index}`, addressIndex: 1000 + index }));
    const inserted = await insertInvoices(getTestDb(), rows);
    expect(inserted.map((invoice) => invoice.id)).toEqual(rows.map((row) => row.id));
    expect(inserted.map((invoice) => invoice.orderId)).toEqual(rows.map((row) => row.orderId));
    expect(await getTestDb().invoice.count({ where: { merchantId: merchant.merchantId } })).toBe(40);
  });

  it("refuses rows that give different fields, writing nothing", async () => {
    const merchant = await makeMerchant();
    const { theme: _theme, ...withoutTheme } = newRow(merchant.merchantId);
    await expect(insertInvoices(getTestDb(), [newRow(merchant.merchantId), withoutTheme])).rejects.toThrow(/same fields/);
    expect(await getTestDb().invoice.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
  });

  it("fails as a whole on a constraint (the same address twice on a network)", async () => {
    const merchant = await makeMerchant();
    const first = newRow(merchant.merchantId);
    await expect(insertInvoices(getTestDb(), [first, newRow(merchant.merchantId, { address: first.address })])).rejects.toThrow();
    expect(await getTestDb().invoice.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
  });

  it("inserts concurrent callers' rows together, and a refused row fails alone: the others of its statement are written", async () => {
    const merchant = await makeMerchant();
    const taken = await insertInvoice(getTestDb(), newRow(merchant.merchantId));
    const rows = Array.from({ length: 30 }, (_, index) => newRow(merchant.merchantId, { addressIndex: 2000 + index }));
    // The 16th reuses an address already taken on the network: its statement fails as a whole.
    rows[15] = newRow(merchant.merchantId, { address: taken.address });
    const outcomes = await Promise.allSettled(rows.map((row) => insertInvoiceCoalesced(getTestDb(), { row })));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(rows.map((_, index) => (index === 15 ? "rejected" : "fulfilled")));
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome.status === "fulfilled") expect(outcome.value).toEqual(await getTestDb().invoice.findUniqueOrThrow({ where: { id: rows[index].id } }));
    }
    expect(await getTestDb().invoice.count({ where: { merchantId: merchant.merchantId } })).toBe(30);
  });

  it("commits each caller's own record with its invoice in the batch's transaction, and a refused record fails its caller alone", async () => {
    const merchant = await makeMerchant();
    const rows = Array.from({ length: 20 }, (_, index) => newRow(merchant.merchantId, { addressIndex: 3000 + index }));
    const recorded: string[] = [];
    const outcomes = await Promise.allSettled(
      rows.map((row, index) =>
        insertInvoiceCoalesced(getTestDb(), {
          row,
          finish: async (tx, invoice) => {
            // The record sees its invoice in the same transaction; the 8th refuses (as a key taken over does).
            expect(await tx.invoice.findUnique({ where: { id: invoice.id }, select: { id: true } })).toEqual({ id: row.id });
            if (index === 7) throw new Error("refused");
            recorded.push(invoice.id);
          },
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(rows.map((_, index) => (index === 7 ? "rejected" : "fulfilled")));
    const written = await getTestDb().invoice.findMany({ where: { merchantId: merchant.merchantId }, select: { id: true } });
    expect(written.map((invoice) => invoice.id).sort()).toEqual(rows.filter((_, index) => index !== 7).map((row) => row.id).sort());
    for (const row of rows) if (row !== rows[7]) expect(recorded).toContain(row.id);
  });
});
