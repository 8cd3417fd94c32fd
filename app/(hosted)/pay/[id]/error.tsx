"use client";

import { LoadError } from "@/components/hosted/page-states";

export default function PaymentPageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <LoadError titleKey="payment.loadErrorTitle" detailKey="payment.loadErrorDetail" reset={reset} />;
}
