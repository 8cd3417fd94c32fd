"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useI18n } from "@/components/i18n/i18n-provider";
import { describeApiFailure, payWithSandboxWallet } from "./pay-api";
import type { PublicPaymentObject } from "@/lib/services/hosted/page-data";

/** One sandbox block per second: fast to watch, slow enough to read the confirmations climb. */
const CONFIRM_INTERVAL_MS = 1000;
/** A payment that is not even seen after this many blocks is not going to be: stop mining. */
const MAX_BLOCKS_WHILE_UNSEEN = 5;
/** Safety stop for the loop; far above any confirmation requirement of a sandbox payment. */
const MAX_BLOCKS = 600;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * operator contract §3 — "Pay with a sandbox wallet": `send` puts the amount due into the sandbox
 * mempool, then one `confirm` per second mines a block while the payment waits for confirmations.
 */
export function useSandboxWallet(invoiceId: string, applyPayment: (payment: PublicPaymentObject) => void) {
  const { t } = useI18n();
  const [isRunning, setIsRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const isMounted = useRef(true);

  useEffect(() => {
    isMounted.current = true;
    return () => {
      isMounted.current = false;
    };
  }, []);

  const pay = useCallback(async () => {
    setIsRunning(true);
    setError(null);
    try {
      const sent = await payWithSandboxWallet(invoiceId, "send");
      if (!sent.ok) {
        setError(describeApiFailure(t, sent));
        return;
      }
      applyPayment(sent.payment);
      let current = sent.payment;
      for (let blocks = 0; blocks < MAX_BLOCKS && isMounted.current; blocks++) {
        const isConfirming = current.payment_status === "confirm_check";
        const isStillUnseen = current.payment_status === "check" && blocks < MAX_BLOCKS_WHILE_UNSEEN;
        if (!isConfirming && !isStillUnseen) break;
        await sleep(CONFIRM_INTERVAL_MS);
        if (!isMounted.current) break;
        const mined = await payWithSandboxWallet(invoiceId, "confirm");
        if (!mined.ok) {
          setError(describeApiFailure(t, mined));
          return;
        }
        applyPayment(mined.payment);
        current = mined.payment;
      }
    } finally {
      if (isMounted.current) setIsRunning(false);
    }
  }, [invoiceId, applyPayment, t]);

  return { pay, isRunning, error };
}
