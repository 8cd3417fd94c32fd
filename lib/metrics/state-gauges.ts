import { Gauge, type Registry } from "prom-client";
import { toWholeUnits } from "./read-table-state";
import type { ServiceStateReader } from "./service-state";

type Labels<L extends string> = Partial<Record<L, string>>;
type Sample<L extends string> = [labels: Labels<L>, value: number];

/**
 * A gauge filled at scrape time. Its samples are computed first and then swapped in at once, so
 * two scrapes collecting side by side never see each other's half-filled gauge.
 */
function defineStateGauge<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  samples: () => Promise<Sample<L>[]>,
): void {
  new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      const found = await samples();
      this.reset();
      for (const [labels, value] of found) this.set(labels, value);
    },
  });
}

/**
 * The gauges read from the service's state when Prometheus scrapes: queues, watcher lag, solvency
 * and the ledger audit. Until a state source is set (or when a part cannot be read in time) they
 * have no samples; an unlabelled gauge is NaN then, never a reassuring 0.
 */
export function registerStateGauges(registry: Registry, readerOf: () => ServiceStateReader | null): void {
  const tables = async () => (await readerOf()?.tables()) ?? null;
  const chains = async () => (await readerOf()?.chains()) ?? [];

  defineStateGauge(registry, "gateway_webhook_queue_depth", "Webhook deliveries pending (due now or waiting for a retry).", [], async () => [[{}, (await tables())?.webhookQueue.depth ?? NaN]]);
  defineStateGauge(registry, "gateway_webhook_queue_due", "Pending webhook deliveries whose attempt is due now.", [], async () => [[{}, (await tables())?.webhookQueue.due ?? NaN]]);
  defineStateGauge(registry, "gateway_webhook_queue_oldest_age_seconds", "Age of the oldest pending webhook delivery; 0 when none is pending.", [], async () => [
    [{}, (await tables())?.webhookQueue.oldestAgeSeconds ?? NaN],
  ]);
  defineStateGauge(registry, "gateway_payout_queue", "Payouts (and refunds) not yet final, by network, kind and status.", ["network", "kind", "status"], async () =>
    ((await tables())?.payoutQueue ?? []).map((row) => [{ network: row.network, kind: row.kind, status: row.status }, row.count]),
  );
  defineStateGauge(registry, "gateway_sweep_queue", "Sweeps and their gas transfers not yet final, by network, kind and status.", ["network", "kind", "status"], async () =>
    ((await tables())?.sweepQueue ?? []).map((row) => [{ network: row.network, kind: row.kind, status: row.status }, row.count]),
  );
  defineStateGauge(registry, "gateway_batches_in_progress", "Payment, refund and payout batches not completed, by kind and status.", ["kind", "status"], async () =>
    ((await tables())?.batchesInProgress ?? []).map((row) => [{ kind: row.kind, status: row.status }, row.count]),
  );
  defineStateGauge(registry, "gateway_ledger_liabilities", "What the ledger owes merchants per asset (every merchant bucket, debt deducted), in whole units.", ["asset"], async () =>
    ((await tables())?.ledger ?? []).map((row) => [{ asset: row.asset }, row.liabilities]),
  );
  defineStateGauge(registry, "gateway_ledger_chain_holdings", "What the ledger says the service holds on chain per asset (deposit addresses and hot wallet), in whole units.", ["asset"], async () =>
    ((await tables())?.ledger ?? []).map((row) => [{ asset: row.asset }, row.chainHoldings]),
  );

  defineStateGauge(registry, "gateway_chain_node_up", "1 when the network's node (or sandbox chain) told its tip within the scrape's deadline, else 0.", ["network"], async () =>
    (await chains()).map((state) => [{ network: state.network }, state.isNodeUp ? 1 : 0]),
  );
  defineStateGauge(registry, "gateway_chain_tip_height", "The network's tip height as its node reports it.", ["network"], async () =>
    (await chains()).flatMap((state) => (state.tipHeight === undefined ? [] : [[{ network: state.network }, state.tipHeight] as Sample<"network">])),
  );
  defineStateGauge(registry, "gateway_watcher_scanned_height", "The height the network's watcher has read up to.", ["network"], async () =>
    (await chains()).flatMap((state) => (state.scannedHeight === undefined ? [] : [[{ network: state.network }, state.scannedHeight] as Sample<"network">])),
  );
  defineStateGauge(registry, "gateway_watcher_lag_blocks", "Blocks the network's watcher is behind the node's tip (absent while the node does not answer).", ["network"], async () =>
    (await chains()).flatMap((state) =>
      state.tipHeight === undefined || state.scannedHeight === undefined ? [] : [[{ network: state.network }, Math.max(0, state.tipHeight - state.scannedHeight)] as Sample<"network">],
    ),
  );
  defineStateGauge(registry, "gateway_watcher_last_scan_timestamp_seconds", "When the network's watcher last finished a pass (moved its cursor), as a Unix time.", ["network"], async () =>
    (await chains()).flatMap((state) => (state.lastScanAt === undefined ? [] : [[{ network: state.network }, state.lastScanAt.getTime() / 1000] as Sample<"network">])),
  );

  defineStateGauge(registry, "gateway_hot_wallet_balance", "The hot wallet's balance per asset as its chain reports it, in whole units (every network a sandbox chain or a verified node serves).", ["network", "asset"], async () => {
    return ((await readerOf()?.hotWallets()) ?? []).map((row) => [{ network: row.network, asset: row.asset }, toWholeUnits(row.asset, row.balanceMinor)]);
  });

  defineStateGauge(registry, "gateway_outgoing_replaced_in_flight", "Transfers on their way that were replaced with a higher fee after waiting unmined, by network and kind.", ["network", "kind"], async () =>
    ((await tables())?.replacedInFlight ?? []).map((row) => [{ network: row.network, kind: row.kind }, row.count]),
  );
  defineStateGauge(registry, "gateway_outgoing_in_flight", "Transfers signed and not final yet (broadcast, in the mempool, in a block not deep enough), by network and kind.", ["network", "kind"], async () =>
    ((await tables())?.unminedInFlight ?? []).map((row) => [{ network: row.network, kind: row.kind }, row.count]),
  );
  defineStateGauge(registry, "gateway_outgoing_oldest_in_flight_seconds", "Age of the oldest transfer signed and not final yet, since it was planned, by network and kind: one that keeps growing is stuck.", ["network", "kind"], async () =>
    ((await tables())?.unminedInFlight ?? []).map((row) => [{ network: row.network, kind: row.kind }, (Date.now() - row.oldest.getTime()) / 1000]),
  );
  defineStateGauge(registry, "gateway_payouts_awaiting_funds", "Payouts waiting because the hot wallet cannot cover them yet, per asset.", ["network", "asset"], async () =>
    ((await tables())?.payoutsAwaitingFunds ?? []).map((row) => [{ network: row.network, asset: row.asset }, row.count]),
  );
  defineStateGauge(registry, "gateway_payouts_awaiting_funds_amount", "What the payouts waiting for hot wallet funds would send, per asset, in whole units.", ["network", "asset"], async () =>
    ((await tables())?.payoutsAwaitingFunds ?? []).map((row) => [{ network: row.network, asset: row.asset }, row.amount]),
  );
  defineStateGauge(registry, "gateway_hot_wallet_limit", "The operator's maximum for the asset's hot wallet (HOT_WALLET_MAX_*), as of the last check, in whole units.", ["network", "asset"], async () =>
    ((await tables())?.hotWalletLimits ?? []).map((row) => [{ network: row.network, asset: row.asset }, row.max]),
  );
  defineStateGauge(registry, "gateway_hot_wallet_over_limit", "What the hot wallet held above its maximum at the last check (beyond what payouts reserve and what is already leaving), in whole units; 0 within the limit.", ["network", "asset"], async () =>
    ((await tables())?.hotWalletLimits ?? []).map((row) => [{ network: row.network, asset: row.asset }, row.excess]),
  );
  defineStateGauge(registry, "gateway_hot_wallet_limit_check_timestamp_seconds", "When the asset's hot wallet limit was last checked (the wallet.to-cold job), as a Unix time.", ["network", "asset"], async () =>
    ((await tables())?.hotWalletLimits ?? []).map((row) => [{ network: row.network, asset: row.asset }, row.checkedAt.getTime() / 1000]),
  );
  defineStateGauge(registry, "gateway_cold_transfers", "Transfers of the hot wallet's excess to its cold address, by network, asset and status (confirmed and failed ones too).", ["network", "asset", "status"], async () =>
    ((await tables())?.coldTransfers ?? []).map((row) => [{ network: row.network, asset: row.asset, status: row.status }, row.count]),
  );
  defineStateGauge(registry, "gateway_ledger_cold_storage", "What the ledger says was moved from the hot wallet to cold storage per asset, in whole units.", ["asset"], async () =>
    ((await tables())?.ledger ?? []).flatMap((row) => (row.coldStorage === 0 ? [] : [[{ asset: row.asset }, row.coldStorage] as Sample<"asset">])),
  );
  const reconciled = async () => (await tables())?.reconciliations ?? [];
  defineStateGauge(registry, "gateway_reconcile_drift", "1 when the last reconciliation of the asset against its chain found drift (a shortfall, a paid payout the chain does not show, a chain it could not read), else 0.", ["network", "asset"], async () =>
    (await reconciled()).map((row) => [{ network: row.network, asset: row.asset }, row.isDrift ? 1 : 0]),
  );
  defineStateGauge(registry, "gateway_reconcile_shortfall", "What the chain holds less than the ledger says (in-flight transfers allowed for) at the last reconciliation, in whole units.", ["network", "asset"], async () =>
    (await reconciled()).map((row) => [{ network: row.network, asset: row.asset }, row.shortfall]),
  );
  defineStateGauge(registry, "gateway_reconcile_surplus", "What the chain holds beyond what the ledger explains (operator top-ups, dust, late payments) at the last reconciliation, in whole units.", ["network", "asset"], async () =>
    (await reconciled()).map((row) => [{ network: row.network, asset: row.asset }, row.surplus]),
  );
  defineStateGauge(registry, "gateway_reconcile_unproven_payouts", "Payouts booked as paid whose transaction the chain did not show confirmed at the last reconciliation.", ["network", "asset"], async () =>
    (await reconciled()).map((row) => [{ network: row.network, asset: row.asset }, row.unprovenPayouts]),
  );
  defineStateGauge(registry, "gateway_reconcile_landed_dead_transfers", "Transfers booked as dead whose transaction the chain showed confirmed at the last reconciliation (a payout paid twice).", ["network", "asset"], async () =>
    (await reconciled()).map((row) => [{ network: row.network, asset: row.asset }, row.landedDeadTransfers]),
  );
  defineStateGauge(registry, "gateway_reconcile_timestamp_seconds", "When the asset was last reconciled against its chain, as a Unix time.", ["network", "asset"], async () =>
    (await reconciled()).map((row) => [{ network: row.network, asset: row.asset }, row.checkedAt.getTime() / 1000]),
  );

  defineStateGauge(registry, "gateway_ledger_audit_drift", "Per asset, how far cached balances are from the sum of their postings at the last ledger audit (sum of absolute differences), in whole units.", ["asset"], async () => {
    const [audit, state] = await Promise.all([readerOf()?.ledgerAudit(), tables()]);
    if (!audit) return [];
    // Every asset the ledger knows gets a sample, so a clean asset shows 0 rather than nothing.
    const assets = new Set([...(state?.ledger ?? []).map((row) => row.asset), ...audit.driftByAsset.keys()]);
    return [...assets].map((asset) => [{ asset }, audit.driftByAsset.get(asset) ?? 0]);
  });
  defineStateGauge(registry, "gateway_ledger_audit_findings", "What each check of the last ledger audit found (accounts, journals, rows); 0 everywhere is a clean ledger.", ["check"], async () =>
    ((await readerOf()?.ledgerAudit())?.findings ?? []).map((finding) => [{ check: finding.check }, finding.count]),
  );
  defineStateGauge(registry, "gateway_ledger_audit_timestamp_seconds", "When the last ledger audit for these gauges finished, as a Unix time.", [], async () => {
    const audit = await readerOf()?.ledgerAudit();
    return [[{}, audit ? audit.ranAt.getTime() / 1000 : NaN]];
  });
}
