import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { renderClientFiles } from "./render-client-files";

// `npm run client:generate`: writes client/openapi.json and the files generated from it.
const clientDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
for (const [relativePath, text] of Object.entries(await renderClientFiles())) {
  await fs.writeFile(path.join(clientDirectory, relativePath), text);
  console.log(`wrote client/${relativePath}`);
}
