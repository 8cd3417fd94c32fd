import { Counter, Gauge, type Registry } from "prom-client";
import { listRpcEndpointPools } from "@/lib/chains/real-chains";
import type { RpcEndpointHealth } from "@/lib/chains/rpc-endpoints";

type EndpointSample = { labels: { network: string; endpoint: string }; health: RpcEndpointHealth };

/** Every endpoint of every network this process reaches, labelled by position and host (never the URL's path or credentials). */
function endpointSamples(): EndpointSample[] {
  return listRpcEndpointPools().flatMap((pool) => pool.health().map((health) => ({ labels: { network: pool.network, endpoint: health.label }, health })));
}

/** Health of each RPC endpoint as this process has seen it: up or cooling down, requests, failures, latency. */
export function registerRpcEndpointMetrics(registry: Registry): void {
  new Gauge<"network" | "endpoint">({
    name: "gateway_rpc_endpoint_up",
    help: "1 when the RPC endpoint answers, 0 while it cools down after failing (requests go to the next endpoint of the network).",
    labelNames: ["network", "endpoint"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, health } of endpointSamples()) this.set(labels, health.isUp ? 1 : 0);
    },
  });
  new Gauge<"network" | "endpoint">({
    name: "gateway_rpc_endpoint_latency_seconds",
    help: "How long the RPC endpoint's last answer took.",
    labelNames: ["network", "endpoint"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, health } of endpointSamples()) if (health.lastLatencySeconds !== null) this.set(labels, health.lastLatencySeconds);
    },
  });
  new Counter<"network" | "endpoint" | "outcome">({
    name: "gateway_rpc_endpoint_requests_total",
    help: "Requests sent to the RPC endpoint, by outcome: answered, or failed (and passed to the next endpoint).",
    labelNames: ["network", "endpoint", "outcome"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, health } of endpointSamples()) {
        this.inc({ ...labels, outcome: "answered" }, health.requests - health.failures);
        this.inc({ ...labels, outcome: "failed" }, health.failures);
      }
    },
  });
}
