import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createGatewayMetrics } from "./registry";

const DASHBOARD_FILE = path.resolve(process.cwd(), "deploy/grafana/gateway-dashboard.json");

interface Panel {
  title?: string;
  panels?: Panel[];
  targets?: { expr?: string }[];
}

function listExpressions(panels: Panel[]): { panel: string; expr: string }[] {
  return panels.flatMap((panel) => [
    ...(panel.targets ?? []).flatMap((target) => (target.expr ? [{ panel: panel.title ?? "", expr: target.expr }] : [])),
    ...listExpressions(panel.panels ?? []),
  ]);
}

const PROMQL_WORDS = new Set(["by", "without", "on", "ignoring", "group_left", "group_right", "bool", "offset", "and", "or", "unless", "inf", "nan"]);

/** The metric names a PromQL expression reads: what is left once strings, matchers, ranges, groupings and calls are set aside. */
function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, "")
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "");
  const names = new Set<string>();
  for (const match of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const following = bare.slice(match.index + match[0].length).trimStart();
    if (following.startsWith("(") || PROMQL_WORDS.has(match[0].toLowerCase())) continue;
    names.add(match[0]);
  }
  return [...names];
}

describe("the Grafana dashboard", () => {
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD_FILE, "utf8")) as { panels: Panel[] };
  const expressions = listExpressions(dashboard.panels);

  it("reads the metric names out of PromQL", () => {
    expect(metricNamesOf('histogram_quantile(0.95, sum by (operation, le) (rate(gateway_api_request_duration_seconds_bucket{code!="x"}[$__rate_interval])))')).toEqual([
      "gateway_api_request_duration_seconds_bucket",
    ]);
    expect(metricNamesOf("max by (asset) (a_total) / on(asset) group_left(network) max by (asset) (b)")).toEqual(["a_total", "b"]);
    expect(metricNamesOf("time() - max(c_seconds) > 0 and d")).toEqual(["c_seconds", "d"]);
  });

  it("uses only metrics the registry exposes", async () => {
    const exposed = new Set<string>();
    for (const metric of await createGatewayMetrics().registry.getMetricsAsJSON()) {
      exposed.add(metric.name);
      // prom-client types `type` as a numeric enum; at run time it is the type's name.
      if (String(metric.type) === "histogram") for (const suffix of ["_bucket", "_sum", "_count"]) exposed.add(metric.name + suffix);
    }
    expect(expressions.length).toBeGreaterThan(20);
    const unknown = expressions.flatMap(({ panel, expr }) => metricNamesOf(expr).filter((name) => !exposed.has(name)).map((name) => `${panel}: ${name}`));
    expect(unknown).toEqual([]);
  });

  it("covers every gateway metric", async () => {
    const used = new Set(expressions.flatMap(({ expr }) => metricNamesOf(expr)).map((name) => name.replace(/_(bucket|sum|count)$/, "")));
    const gatewayMetrics = (await createGatewayMetrics().registry.getMetricsAsJSON()).map((metric) => metric.name).filter((name) => name.startsWith("gateway_"));
    // Collection failures are for alerts, not for a panel.
    expect(gatewayMetrics.filter((name) => !used.has(name) && name !== "gateway_metrics_collect_failures_total")).toEqual([]);
  });
});
