"use client";

import { type FormEvent } from "react";
import { Alert, Field } from "@/components/cabinet/form-controls";
import { DataTable, EmptyState, StatusBadge } from "@/components/cabinet/page-kit";
import { Button } from "@/components/ui/button";
import { RowRemoveButton, useSettingsAction } from "./settings-form-kit";

/**
 * The API keys' IP allow-list (POST /v1/api-allowlist/*). While it is on, signed API requests
 * from any other address are refused with auth.ip_not_allowed; the cabinet is not affected.
 * Every change asks for a fresh code.
 */
export function AllowlistSettings({
  entries,
  isEnabled,
  currentAddress,
  isCurrentIncluded,
  canEdit,
}: {
  entries: string[];
  isEnabled: boolean;
  /** The address this browser reaches the service from, as the service sees it. */
  currentAddress: string;
  isCurrentIncluded: boolean;
  canEdit: boolean;
}) {
  const removal = useSettingsAction();
  const add = useSettingsAction();
  const toggle = useSettingsAction();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const cidr = String(new FormData(formElement).get("cidr") ?? "").trim();
    const result = await add.submit("allowlist.add", { cidr }, (view) => `Added. The list has ${(view as { entries: string[] }).entries.length} entr${(view as { entries: string[] }).entries.length === 1 ? "y" : "ies"}.`);
    if (result?.ok) formElement.reset();
  };

  const remove = (cidr: string) =>
    void removal.submit("allowlist.remove", { cidr }, (view) =>
      (view as { enabled: boolean }).enabled || !isEnabled ? `Removed ${cidr}.` : `Removed ${cidr}. It was the last entry, so the allow-list is now off.`,
    );

  return (
    <div className="flex flex-col gap-6">
      {removal.dialog}
      {toggle.dialog}
      {add.dialog}
      <div className="flex flex-col gap-3 rounded-lg border border-(--ui-border) p-4">
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium">Allow-list:</span> <StatusBadge status={isEnabled ? "active" : "disabled"} />
          <span className="text-(--ui-muted)">{isEnabled ? "only the addresses below may call the API with your keys." : "API keys work from any address."}</span>
        </p>
        <p className="text-sm">
          This browser reaches the service from <span className="font-mono break-all">{currentAddress || "an unknown address"}</span>
          {entries.length > 0 ? (isCurrentIncluded ? ", which is in the list." : ", which is not in the list.") : "."}
        </p>
        {!isCurrentIncluded && entries.length > 0 ? (
          <Alert tone="warn">
            {isEnabled
              ? "API requests from this address are refused (auth.ip_not_allowed). Signing in to the cabinet still works from anywhere."
              : "Once enabled, API requests from addresses outside the list — this one included — are refused with auth.ip_not_allowed. The cabinet keeps working from anywhere; make sure your servers' addresses are listed first."}
          </Alert>
        ) : null}
        {toggle.message}
        {canEdit ? (
          <div>
            <Button
              variant={isEnabled ? "secondary" : "primary"}
              disabled={toggle.isPending || (!isEnabled && entries.length === 0)}
              onClick={() => void toggle.submit("allowlist.enable", { enabled: !isEnabled }, isEnabled ? "The allow-list is off: API keys work from any address." : "The allow-list is on.")}
            >
              {toggle.isPending ? "Saving…" : isEnabled ? "Disable allow-list" : "Enable allow-list"}
            </Button>
            {!isEnabled && entries.length === 0 ? <p className="mt-2 text-sm text-(--ui-muted)">Add an address first: an empty list cannot be enabled.</p> : null}
          </div>
        ) : null}
      </div>

      {entries.length === 0 ? (
        <EmptyState title="No address in the allow-list">{canEdit ? "Add your servers' addresses below, then enable the list." : "An owner or admin can add addresses."}</EmptyState>
      ) : (
        <DataTable caption="Allowed addresses and ranges" headers={["Address or range", canEdit ? "Actions" : ""]}>
          {entries.map((cidr) => (
            <tr key={cidr}>
              <td className="font-mono break-all">{cidr}</td>
              <td>
                <RowRemoveButton canEdit={canEdit} pending={removal.isPending} onClick={() => remove(cidr)} what={cidr} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {removal.message}

      {canEdit ? (
        <form onSubmit={submit} className="flex max-w-2xl flex-col gap-4" aria-labelledby="allowlist-form-title" noValidate>
          <h3 id="allowlist-form-title" className="font-semibold">
            Add an address
          </h3>
          <Field
            id="allowlist-cidr"
            name="cidr"
            label="Address or range"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder="203.0.113.10 or 203.0.113.0/24"
            hint="An IPv4 or IPv6 address, or a CIDR range written from its first address (203.0.113.0/24, not 203.0.113.7/24)."
          />
          {add.message}
          <div>
            <Button type="submit" disabled={add.isPending}>
              {add.isPending ? "Adding…" : "Add to allow-list"}
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
