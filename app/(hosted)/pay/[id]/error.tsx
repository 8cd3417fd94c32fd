"use client";

import { Button } from "@/components/ui/button";
import { themeClassName } from "@/components/ui/theme";

export default function PaymentPageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className={`${themeClassName("light")} min-h-dvh bg-(--ui-page) text-(--ui-fg)`}>
      <main className="mx-auto flex w-full max-w-md flex-col gap-3 px-4 py-10">
        <h1 className="text-2xl font-semibold tracking-tight">The payment page could not load</h1>
        <p className="text-(--ui-muted)">The payment service did not answer as expected. Your invoice is unchanged; try again in a moment.</p>
        <Button onClick={reset} className="self-start">
          Try again
        </Button>
      </main>
    </div>
  );
}
