"use client";

import { useEffect, useState } from "react";

/** The server's clock, ticking every second; starts at the render time so hydration matches. */
export function useServerNow(renderedAtMs: number): number {
  const [nowMs, setNowMs] = useState(renderedAtMs);
  useEffect(() => {
    // The page's render time is the best estimate of the server clock at hydration; the
    // difference also absorbs a wrong clock on the buyer's device.
    const skewMs = renderedAtMs - Date.now();
    const tick = () => setNowMs(Date.now() + skewMs);
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [renderedAtMs]);
  return nowMs;
}
