"use client";

import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { PageRefreshProvider } from "./page-refresh";

/** Next's pages render again through the router: a new server render, the client state kept. */
export function RouterRefreshProvider({ children }: { children: ReactNode }) {
  const router = useRouter();
  return <PageRefreshProvider value={router.refresh}>{children}</PageRefreshProvider>;
}
