import { ExplorerLink } from "@/components/cabinet/page-kit";
import { CopyButton } from "@/components/ui/copy-button";

/** A long value (address, txid, uuid) whole, breaking anywhere, with a Copy button; a link to the block explorer where there is one. */
export function Copyable({ value, name, href }: { value: string; name: string; href?: string | null }) {
  return (
    <div className="flex flex-wrap items-start gap-2">
      {href ? (
        <ExplorerLink href={href} name={name} className="min-w-0 flex-1 font-mono text-sm break-all">
          {value}
        </ExplorerLink>
      ) : (
        <span className="min-w-0 flex-1 font-mono text-sm break-all">{value}</span>
      )}
      <CopyButton value={value} label="Copy" accessibleName={`Copy ${name}`} copiedText="Copied" announcement={`${name} copied`} failure={`Select the ${name} and copy it`} />
    </div>
  );
}
