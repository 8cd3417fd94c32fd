import { z } from "zod";
import { listServiceEntries } from "@/lib/services/catalogue/list-service-entries";
import { defineOperation } from "../../operation";
import { PAYMENT_SERVICES_EXAMPLE, PAYOUT_SERVICES_EXAMPLE, SERVICE_ENTRY_SCHEMA } from "../../serialize/catalogue";

export const listPaymentServicesOp = defineOperation({
  schema: z.object({}),
  invalidBody: "payment.bad_request",
  summary: "List the ways to receive payments",
  description:
    "Every (network, currency) pair of the catalogue for reception, with its limits and the platform fee (percentage plus a fixed part, taken when a payment is received), in the coin's units at the current rate. `is_available` is false where deposits do not work now or no rate is known.",
  response: z.array(SERVICE_ENTRY_SCHEMA),
  errors: ["rate.unavailable"],
  requestExample: {},
  responseExample: PAYMENT_SERVICES_EXAMPLE,
  handle: (_input, context) => listServiceEntries(context.deps, "payment"),
});

export const listPayoutServicesOp = defineOperation({
  schema: z.object({}),
  invalidBody: "payout.bad_request",
  summary: "List the ways to pay out",
  description:
    "Every (network, currency) pair of the catalogue for payouts, with its limits and the payout (network) fee, in the coin's units at the current rate. A pair is available only where a real on-chain sender exists and a rate is known: check `is_available` before creating a payout.",
  response: z.array(SERVICE_ENTRY_SCHEMA),
  errors: ["rate.unavailable"],
  requestExample: {},
  responseExample: PAYOUT_SERVICES_EXAMPLE,
  handle: (_input, context) => listServiceEntries(context.deps, "payout"),
});
