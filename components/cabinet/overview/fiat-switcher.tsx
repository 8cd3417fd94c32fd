"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { ESTIMATE_FIAT_COOKIE } from "@/lib/cabinet/estimate-fiat";

/** Chooses the fiat of the overview's estimates; remembered in a cookie, then the page is read again. */
export function FiatSwitcher({ value, fiats }: { value: string; fiats: string[] }) {
  const router = useRouter();
  const [chosen, setChosen] = useState(value);
  const [isPending, startTransition] = useTransition();
  return (
    <label className="flex items-center gap-2 text-sm text-(--ui-muted)">
      <span>Estimates in</span>
      <select
        value={chosen}
        aria-busy={isPending}
        onChange={(event) => {
          setChosen(event.target.value);
          document.cookie = `${ESTIMATE_FIAT_COOKIE}=${event.target.value}; path=/cabinet; max-age=31536000; samesite=lax`;
          startTransition(() => router.refresh());
        }}
        className="min-h-9 rounded-md border border-(--ui-border-strong) bg-(--ui-surface) px-2 text-(--ui-fg)"
      >
        {fiats.map((fiat) => (
          <option key={fiat} value={fiat}>
            {fiat}
          </option>
        ))}
      </select>
    </label>
  );
}
