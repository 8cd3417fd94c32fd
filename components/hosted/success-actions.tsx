"use client";

import { useEffect, useState } from "react";
import { Button, ButtonLink } from "@/components/ui/button";

/** Seconds before a paid invoice sends the buyer on to the merchant's success page. */
const REDIRECT_AFTER_SECONDS = 5;

/** "Continue" to the merchant's success page, followed automatically unless the buyer stays. */
export function SuccessActions({ successUrl }: { successUrl: string }) {
  const [secondsLeft, setSecondsLeft] = useState(REDIRECT_AFTER_SECONDS);
  const [isCancelled, setIsCancelled] = useState(false);

  useEffect(() => {
    if (isCancelled) return;
    if (secondsLeft <= 0) {
      window.location.assign(successUrl);
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft, isCancelled, successUrl]);

  return (
    <div className="flex flex-col gap-3">
      <ButtonLink href={successUrl} className="w-full">
        Continue
      </ButtonLink>
      {isCancelled ? null : (
        <p className="flex min-h-11 flex-wrap items-center justify-center gap-x-2 text-center text-sm text-(--ui-muted)" data-testid="redirect-notice">
          <span>
            Returning to the store in <span className="inline-block w-[2ch] tabular-nums">{Math.max(0, secondsLeft)}</span> s.
          </span>
          <Button variant="ghost" className="px-2 text-sm" onClick={() => setIsCancelled(true)}>
            Stay on this page
          </Button>
        </p>
      )}
    </div>
  );
}
