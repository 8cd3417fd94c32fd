import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";

const CHECK_KEY = "master_key_check";
const CHECK_CONTEXT = "service-setting:master_key_check";
const CHECK_VALUE = "gateway master key check";

/**
 * Refuses to run with a master key other than the one the stored secrets were sealed with:
 * the first start records a sealed check value, later starts must be able to open it.
 */
export async function verifyMasterKey(db: Db, box: SecretBox): Promise<void> {
  await db.serviceSetting.createMany({ data: [{ key: CHECK_KEY, value: box.seal(CHECK_VALUE, CHECK_CONTEXT) }], skipDuplicates: true });
  const stored = await db.serviceSetting.findUniqueOrThrow({ where: { key: CHECK_KEY } });
  let opened: string | undefined;
  try {
    opened = box.open(stored.value, CHECK_CONTEXT);
  } catch {
    opened = undefined;
  }
  if (opened !== CHECK_VALUE) {
    throw new Error(
      "The master key does not match this database: set GATEWAY_MASTER_KEY (or restore <data dir>/master.key) to the key the data was written with",
    );
  }
}
