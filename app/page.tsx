import { getHealth } from "@/lib/services/system/get-health";
import { listSettlementAssets, listPricingCurrencies } from "@/lib/catalogue";
import { Card } from "@/components/ui/card";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const health = await getHealth();
  const servedNetworks = health.networks.filter((network) => network.source !== "off");
  const assets = listSettlementAssets();
  return (
    // The service page is English whatever the visitor's language (the document's follows the public pages).
    <main lang="en" className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Gateway</h1>
      <p className="mt-2 text-slate-600">Cryptocurrency payments for this merchant service.</p>

      <Card title="Service status" titleId="status">
        <dl className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-3">
          <div>
            <dt className="text-sm text-slate-500">API</dt>
            <dd className={health.ok ? "font-medium text-emerald-700" : "font-medium text-red-700"}>{health.ok ? "Operational" : "Degraded"}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-500">Mode</dt>
            <dd className="font-medium">{health.sandbox ? "Sandbox chains on" : "Live chains only"}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-500">Networks served</dt>
            <dd className="font-medium">
              {servedNetworks.length} of {health.networks.length}
            </dd>
          </div>
        </dl>
      </Card>

      <Card title="Integrate" titleId="integrate">
        <p className="mt-2 text-sm text-slate-600">
          Every operation lives under <code className="font-mono">/v1</code> and is signed with HMAC-SHA256. The public currency
          catalogue is at{" "}
          <a className="font-mono text-indigo-700 underline" href="/v1/currencies">
            /v1/currencies
          </a>
          : {assets.length} settlement assets on {health.networks.length} networks, {listPricingCurrencies().length} pricing currencies.
        </p>
      </Card>
    </main>
  );
}
