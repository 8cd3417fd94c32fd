"use client";

import { useEffect, useRef, useState } from "react";
import { buttonClassName } from "./button";

type CopyState = "idle" | "copied" | "failed";

/** How long the "Copied" confirmation stays before the button reads "Copy" again. */
const CONFIRMATION_MS = 2000;

/**
 * Copies through a hidden text field and `execCommand`: the fallback for browsers without the
 * asynchronous clipboard (older ones, or pages not served from a secure origin).
 */
function copyWithTextField(text: string): boolean {
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.className = "fixed top-0 left-0 opacity-0";
  document.body.appendChild(field);
  field.select();
  field.setSelectionRange(0, text.length);
  let isCopied = false;
  try {
    isCopied = document.execCommand("copy");
  } catch {
    isCopied = false;
  }
  field.remove();
  return isCopied;
}

async function copyText(text: string): Promise<boolean> {
  if (typeof navigator !== "undefined" && navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Permission refused or document not focused: the old way may still work.
    }
  }
  return copyWithTextField(text);
}

/**
 * A button that copies `value` and confirms it visibly and to screen readers. The caller gives the
 * words in the page's language: `label` ("Copy"), `accessibleName` ("Copy address"), `copiedText`
 * ("Copied"), `announcement` ("Address copied") and `failure` (shown when copying is refused).
 */
export function CopyButton({
  value,
  label,
  accessibleName,
  copiedText,
  announcement,
  failure,
  className = "",
}: {
  value: string;
  label: string;
  accessibleName: string;
  copiedText: string;
  announcement: string;
  failure: string;
  className?: string;
}) {
  const [state, setState] = useState<CopyState>("idle");
  const resetTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => () => clearTimeout(resetTimer.current), []);

  async function handleClick() {
    const isCopied = await copyText(value);
    // The fallback selects a hidden field, which takes focus; give it back to the button.
    buttonRef.current?.focus();
    setState(isCopied ? "copied" : "failed");
    clearTimeout(resetTimer.current);
    resetTimer.current = setTimeout(() => setState("idle"), isCopied ? CONFIRMATION_MS : CONFIRMATION_MS * 3);
  }

  return (
    <span className="inline-flex flex-col items-end">
      <button
        ref={buttonRef}
        type="button"
        onClick={handleClick}
        aria-label={accessibleName}
        className={buttonClassName("secondary", `min-w-24 shrink-0 text-sm ${className}`)}
        data-state={state}
      >
        {state === "copied" ? (
          <>
            <CheckIcon />
            {copiedText}
          </>
        ) : (
          <>
            <CopyIcon />
            {label}
          </>
        )}
      </button>
      <span aria-live="polite" className={state === "failed" ? "mt-1 max-w-48 text-right text-xs text-(--ui-danger)" : "sr-only"}>
        {state === "copied" ? announcement : state === "failed" ? failure : ""}
      </span>
    </span>
  );
}

function CopyIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.6">
      <rect x="7" y="7" width="10" height="10" rx="2" />
      <path d="M13 4.5V4a1.5 1.5 0 0 0-1.5-1.5h-7A1.5 1.5 0 0 0 3 4v7a1.5 1.5 0 0 0 1.5 1.5H5" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="m4.5 10.5 3.5 3.5 7.5-8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
