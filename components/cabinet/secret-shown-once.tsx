"use client";

import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

/**
 * A secret just issued, shown this once: what it is (read out as a status), the caller's details,
 * then "Copy secret" and "I have stored it" (which closes the box).
 */
export function SecretShownOnce({
  status,
  secret,
  copyName,
  onDone,
  className,
  children,
}: {
  status: ReactNode;
  secret: string;
  /** The copy button's accessible name. */
  copyName: string;
  onDone(): void;
  /** Classes in front of the box's own (a margin). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`${className ? `${className} ` : ""}flex flex-col gap-3 rounded-xl border border-(--ui-warn-border) bg-(--ui-warn-bg) p-4 text-(--ui-warn)`}>
      <p role="status" className="font-medium">
        {status}
      </p>
      {children}
      <div className="flex flex-wrap gap-2">
        <CopyButton value={secret} label="Copy secret" accessibleName={copyName} copiedText="Copied" announcement="Secret copied" failure="Select the secret and copy it" />
        <Button variant="secondary" onClick={onDone}>
          I have stored it
        </Button>
      </div>
    </div>
  );
}
