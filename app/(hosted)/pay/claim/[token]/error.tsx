"use client";

import { LoadError } from "@/components/hosted/page-states";

export default function ClaimPageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <LoadError titleKey="claim.loadErrorTitle" detailKey="claim.loadErrorDetail" reset={reset} />;
}
