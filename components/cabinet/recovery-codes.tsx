"use client";

import { buttonClassName } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

/** Ten recovery codes, shown once: to copy, download as a text file, or print. */
export function RecoveryCodes({ codes, email }: { codes: string[]; email: string }) {
  const text = `Gateway recovery codes for ${email}\nEach code signs you in once.\n\n${codes.join("\n")}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "gateway-recovery-codes.txt";
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="mt-5">
      <ol aria-label="Recovery codes" data-testid="recovery-codes" className="grid grid-cols-2 gap-2 rounded-lg bg-(--ui-subtle) p-4 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="mt-3 flex flex-wrap gap-2">
        <CopyButton value={codes.join("\n")} label="Copy codes" accessibleName="Copy codes for recovery" copiedText="Copied" announcement="Recovery codes copied" failure="Select the codes and copy them" />
        <button type="button" onClick={download} className={buttonClassName("secondary")}>
          Download
        </button>
        <button type="button" onClick={() => window.print()} className={buttonClassName("secondary")}>
          Print
        </button>
      </div>
    </div>
  );
}
