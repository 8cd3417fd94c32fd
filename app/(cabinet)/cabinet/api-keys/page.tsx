import type { Metadata } from "next";
import { ApiKeyManager } from "@/components/cabinet/api-key-manager";
import { PageHeader } from "@/components/cabinet/page-kit";
import { getApiDeps } from "@/lib/api/deps";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { listApiKeys } from "@/lib/services/cabinet/api-keys";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const actor = await requireActorForPage();
  const keys = await listApiKeys(getApiDeps().db, actor.merchantId);
  return (
    <>
      <PageHeader title="API keys" description="Keys sign requests to the /v1 API. A secret is shown once, when its key is created or rotated." />
      <ApiKeyManager
        canManage={roleAllows(actor.role, "api_keys")}
        keys={keys.map((key) => ({ publicId: key.publicId, kind: key.kind, createdAt: key.createdAt.toISOString(), revokedAt: key.revokedAt?.toISOString() ?? null }))}
      />
    </>
  );
}
