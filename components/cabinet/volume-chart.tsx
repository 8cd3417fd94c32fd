"use client";

import { useId, useState } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { INPUT_CLASS } from "./form-controls";

export interface VolumePoint {
  /** ISO start of the bucket. */
  start: string;
  count: number;
  /** Exact decimal strings per currency. */
  amounts: Record<string, string>;
}

function bucketLabel(iso: string, granularity: "hour" | "day"): string {
  const date = new Date(iso);
  return granularity === "hour"
    ? date.toLocaleTimeString("en", { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleDateString("en", { month: "short", day: "numeric" });
}

/** An axis tick in two significant digits ("0.002", "1.5K"): the axis is for the eye, the exact figures are in the tooltip. */
const formatTick = (value: number) => new Intl.NumberFormat("en", { notation: "compact", maximumSignificantDigits: 2 }).format(value);

/**
 * Paid volume per bucket for one currency at a time (coins of different sizes do not stack).
 * The bars are for the eye; the exact figures are in the tooltip and in the totals table beside it.
 */
export function VolumeChart({ points, currencies, granularity }: { points: VolumePoint[]; currencies: string[]; granularity: "hour" | "day" }) {
  const [currency, setCurrency] = useState(currencies[0] ?? "");
  const selectId = useId();
  // Display only: the chart's scale needs numbers; the figures shown as text stay exact strings.
  const data = points.map((point) => ({ label: bucketLabel(point.start, granularity), value: Number(point.amounts[currency] ?? "0"), exact: point.amounts[currency] ?? "0", count: point.count }));
  return (
    <div>
      {currencies.length > 1 ? (
        <div className="mb-3 flex items-center gap-2">
          <label htmlFor={selectId} className="text-sm font-medium">
            Currency
          </label>
          <select id={selectId} value={currency} onChange={(event) => setCurrency(event.target.value)} className={`${INPUT_CLASS} w-auto`}>
            {currencies.map((code) => (
              <option key={code}>{code}</option>
            ))}
          </select>
        </div>
      ) : null}
      <figure aria-label={`Paid volume in ${currency} per ${granularity}`} className="h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--ui-border)" vertical={false} />
            <XAxis dataKey="label" tick={{ fill: "var(--ui-muted)", fontSize: 12 }} interval="preserveStartEnd" minTickGap={16} />
            <YAxis tick={{ fill: "var(--ui-muted)", fontSize: 12 }} width={64} allowDecimals tickCount={5} tickFormatter={formatTick} />
            <Tooltip
              cursor={{ fill: "var(--ui-subtle)" }}
              contentStyle={{ background: "var(--ui-surface)", border: "1px solid var(--ui-border)", color: "var(--ui-fg)" }}
              formatter={(_value, _name, item) => [`${(item.payload as { exact: string }).exact} ${currency}`, "Paid"]}
            />
            <Bar dataKey="value" fill="var(--ui-accent)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </figure>
    </div>
  );
}
