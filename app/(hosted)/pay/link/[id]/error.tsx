"use client";

import { LoadError } from "@/components/hosted/page-states";

export default function CheckoutPageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <LoadError titleKey="checkout.loadErrorTitle" detailKey="checkout.loadErrorDetail" reset={reset} />;
}
