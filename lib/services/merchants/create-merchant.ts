import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { issueApiKey, type IssuedApiKey } from "@/lib/auth/api-keys";
import { hashPassword } from "@/lib/auth/passwords";
import { withTransaction } from "@/lib/db/transaction";

export interface CreateMerchantInput {
  name: string;
  email?: string;
  password?: string;
}

export interface CreatedMerchant {
  merchantId: string;
  apiKey: IssuedApiKey;
}

/** Creates a merchant with a unified API key (and cabinet credentials when e-mail and password are given). */
export async function createMerchant(deps: { db: Db; secretBox: SecretBox }, input: CreateMerchantInput): Promise<CreatedMerchant> {
  const name = input.name.trim();
  if (name === "") throw new Error("A merchant needs a name");
  if ((input.email === undefined) !== (input.password === undefined)) {
    throw new Error("--email and --password go together");
  }
  const email = input.email?.trim().toLowerCase();
  if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error(`"${input.email}" is not an e-mail address`);
  if (input.password !== undefined && input.password.length < 8) throw new Error("The password must be at least 8 characters");
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  const merchantId = randomUUID();
  const apiKey = await withTransaction(deps.db, async (tx) => {
    await tx.merchant.create({ data: { id: merchantId, name, email, passwordHash } });
    return issueApiKey(tx, deps.secretBox, merchantId, "unified");
  });
  return { merchantId, apiKey };
}
