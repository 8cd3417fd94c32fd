import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { issueApiKey, type IssuedApiKey } from "@/lib/auth/api-keys";
import { withTransaction } from "@/lib/db/transaction";
import { isAppError } from "@/lib/errors";
import { insertCabinetUser, isEmailAddress, MIN_PASSWORD_LENGTH, preparePassword } from "@/lib/services/cabinet/users";

export interface CreateMerchantInput {
  name: string;
  email?: string;
  password?: string;
}

export interface CreatedMerchant {
  merchantId: string;
  apiKey: IssuedApiKey;
}

/** Creates a merchant with a unified API key (and its cabinet owner when e-mail and password are given). */
export async function createMerchant(deps: { db: Db; secretBox: SecretBox }, input: CreateMerchantInput): Promise<CreatedMerchant> {
  const name = input.name.trim();
  if (name === "") throw new Error("A merchant needs a name");
  if ((input.email === undefined) !== (input.password === undefined)) {
    throw new Error("--email and --password go together");
  }
  const email = input.email?.trim().toLowerCase();
  if (email !== undefined && !isEmailAddress(email)) throw new Error(`"${input.email}" is not an e-mail address`);
  if (input.password !== undefined && input.password.length < MIN_PASSWORD_LENGTH) throw new Error(`The password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  const passwordHash = input.password === undefined ? undefined : await preparePassword(input.password);
  const merchantId = randomUUID();
  const now = new Date();
  try {
    const apiKey = await withTransaction(deps.db, async (tx) => {
      await tx.merchant.create({ data: { id: merchantId, name } });
      if (email !== undefined && passwordHash !== undefined) await insertCabinetUser(tx, { merchantId, email, passwordHash, role: "owner" }, now);
      return issueApiKey(tx, deps.secretBox, merchantId, "unified");
    });
    return { merchantId, apiKey };
  } catch (error) {
    if (isAppError(error) && error.code === "cabinet.email_taken") throw new Error(`A cabinet user with e-mail ${email} already exists`);
    throw error;
  }
}
