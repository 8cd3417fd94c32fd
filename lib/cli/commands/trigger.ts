import type { Command } from "commander";
import { defineAction } from "../command-kit";
import { cliActor, parseCount, requireMerchant } from "../lookups";
import { withCliDatabase } from "../open-database";
import { TRIGGERABLE_EVENTS } from "../trigger/triggerable-events";

export function registerTriggerCommand(program: Command): void {
  const list = Object.entries(TRIGGERABLE_EVENTS).map(([type, what]) => `  ${type.padEnd(22)} ${what}`);
  defineAction<{ merchant: string; network: string; currency: string; amount?: string; timeout: string }>(
    program
      .command("trigger")
      .description("makes a real sandbox object and drives it until the event happens (sandbox mode only)")
      .argument("<event_type>", "the event to make happen")
      .requiredOption("--merchant <merchant_id>", "whose")
      .option("--network <network>", "the sandbox network", "tron")
      .option("--currency <symbol>", "the coin", "USDT")
      .option("--amount <amount>", "invoice price in USD (default 10.00), or payout / wallet deposit amount in the coin (default 5 / 10)")
      .option("--timeout <seconds>", "give up after this long", "60")
      .addHelpText("after", `\nEvent types:\n${list.join("\n")}\n`),
    async (options, context, [type]) => {
      const timeoutMs = parseCount(options.timeout, "--timeout", { min: 1, max: 3600 }) * 1000;
      return withCliDatabase(async (db) => {
        const merchant = await requireMerchant(db, options.merchant);
        const { createApiDeps } = await import("@/lib/api/deps");
        const { getConfig } = await import("@/lib/config/env");
        const { getSecretBox } = await import("@/lib/crypto/master-key");
        const { toEventFields } = await import("@/lib/api/serialize/event");
        const { triggerEvent } = await import("../trigger/trigger-event");
        // The operator's CLI drives the scene to its end, payouts signed included, whatever the
        // web processes of the same configuration run with (GATEWAY_WORKER=off refuses the seed).
        const config = getConfig();
        const deps = createApiDeps(config.worker === "off" ? { ...config, worker: "builtin" } : config, db, getSecretBox());
        const outcome = await triggerEvent(deps, {
          type,
          merchantId: merchant.id,
          network: options.network,
          currency: options.currency,
          amount: options.amount,
          timeoutMs,
          actor: cliActor(),
          signal: context.signal,
        });
        const event = toEventFields(outcome.event);
        return {
          json: { event: { merchant_id: merchant.id, ...event }, object: outcome.object, ...(outcome.fundedBy ? { funded_by_invoice: outcome.fundedBy } : {}) },
          text:
            `${event.type} happened: event ${event.id}, ${outcome.object.kind} ${outcome.object.id}` +
            (outcome.fundedBy ? `\n(the balance was funded by the paid invoice ${outcome.fundedBy})` : ""),
        };
      });
    },
    { runsUntilStopped: true },
  );
}
