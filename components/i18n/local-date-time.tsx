"use client";

import { useSyncExternalStore } from "react";
import { formatDateTime } from "@/lib/i18n/format";
import { useI18n } from "./i18n-provider";

const subscribeNever = () => () => {};

/**
 * A moment in the page's language and the visitor's time zone. The server does not know that zone,
 * so the server's HTML (and the first render in the browser, which must match it) says UTC.
 */
export function LocalDateTime({ iso }: { iso: string }) {
  const { locale } = useI18n();
  const isBrowser = useSyncExternalStore(subscribeNever, () => true, () => false);
  return <time dateTime={iso}>{formatDateTime(locale, iso, isBrowser ? undefined : "UTC")}</time>;
}
