import type { z } from "zod";
import type { Invoice } from "@/generated/prisma/client";
import type { Db, Tx } from "@/lib/db/client";
import { createKeyedCoalescer, onePerOwner } from "@/lib/db/coalesce";
import { withTransaction } from "@/lib/db/transaction";
import { txDepsOf } from "@/lib/deps/unit-of-work";
import { parseInput } from "@/lib/errors/parse-input";
import { foundInvoiceOf, lockFreeRowOf, type InvoicePlan } from "@/lib/services/invoices/create-invoice";
import { givenFields, insertInvoice, insertInvoices, type NewInvoiceRow } from "@/lib/services/invoices/insert-invoices";
import type { Operation, WorkSpec } from "./operation";

/** Rows of one coalesced insert at most. */
const COALESCED_INSERT_ROWS = 250;

/** One request's invoice to insert, and what its entry point commits with it (an idempotent answer), if anything. */
export interface CoalescedInsert {
  row: NewInvoiceRow;
  finish?: (tx: Tx, invoice: Invoice) => Promise<void>;
}

/**
 * Inserts each invoice alone: one statement on its own when nothing is committed with it, else a
 * transaction with its finish.
 */
function insertAlone(db: Db, { row, finish }: CoalescedInsert): Promise<Invoice> {
  if (!finish) return insertInvoice(db, row);
  return withTransaction(db, async (tx) => {
    const invoice = await insertInvoice(tx, row);
    await finish(tx, invoice);
    return invoice;
  });
}

/**
 * Inserts the invoices of concurrent requests in one statement (see createCoalescer). Alone, the
 * statement commits all or none; with a request's finish among them, the statement and every
 * finish share one transaction, so each request's answer commits with its invoice and the
 * others' or not at all. A batch that fails is run again one request at a time, so each caller
 * gets its own outcome (one refused answer does not fail the others).
 */
const coalescedInserterOf = onePerOwner((db: Db) =>
  createKeyedCoalescer(
    ({ row }: CoalescedInsert) => givenFields(row).join(","),
    () => ({
      maxBatch: COALESCED_INSERT_ROWS,
      runBatch: async (inserts: CoalescedInsert[]) => {
        const rows = inserts.map((insert) => insert.row);
        if (!inserts.some((insert) => insert.finish)) return insertInvoices(db, rows);
        return withTransaction(db, async (tx) => {
          const invoices = await insertInvoices(tx, rows);
          for (const [position, { finish }] of inserts.entries()) await finish?.(tx, invoices[position]);
          return invoices;
        });
      },
      runAlone: (insert: CoalescedInsert) => insertAlone(db, insert),
    }),
  ),
);

/** Inserts one request's invoice with the invoices other requests insert at the same moment. */
export function insertInvoiceCoalesced(db: Db, insert: CoalescedInsert): Promise<Invoice> {
  return coalescedInserterOf(db)(insert);
}

/**
 * An operation that creates one invoice (POST /v1/payment, a payment link's checkout): as
 * defineWork, but an invoice that needs no lock is inserted with other requests' (see
 * insertInvoiceCoalesced), its idempotent answer stored in the same transaction; one already
 * answered by an invoice writes nothing, and dispatch stores its answer.
 */
export function defineInvoiceWork<Schema extends z.ZodType, Args>(spec: WorkSpec<Schema, Args, InvoicePlan, Invoice>): Operation {
  const { schema, invalidBody, fieldErrors, unit, args, answer, ...docs } = spec;
  return {
    input: { schema, invalidBody, fieldErrors },
    docs,
    async run(body, context, recordAnswer) {
      const { deps } = context;
      const plan = await unit.prepare(deps, args(parseInput(spec, body), context));
      const found = foundInvoiceOf(plan);
      if (found) return answer(found, context);
      let answered: unknown;
      const finish = async (tx: Tx, invoice: Invoice) => {
        answered = await answer(invoice, context);
        await recordAnswer?.(tx, answered);
      };
      const row = lockFreeRowOf(plan);
      if (row) {
        const invoice = await insertInvoiceCoalesced(deps.db, { row, finish: recordAnswer && finish });
        return recordAnswer ? answered : answer(invoice, context);
      }
      return withTransaction(
        deps.db,
        async (tx) => {
          await finish(tx, await unit.execute(tx, txDepsOf(deps), plan));
          return answered;
        },
        { turn: unit.turnOf?.(plan) },
      );
    },
  };
}
