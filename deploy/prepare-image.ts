import { ensureNextBuild, ensurePrismaClient, isNextBuildCurrent } from "@/lib/runtime/prepare";

/**
 * The image's build steps, exactly as `npm start` would take them at its first start: generate the
 * Prisma client, then `next build`, each with the stamp `npm start` checks. With `--verify` it only
 * checks that the stamps still match, so the runtime stage never builds again (as a non-root user,
 * without the dev dependencies that `next build` type-checks against).
 */
function main(): void {
  if (process.argv.includes("--verify")) {
    if (!isNextBuildCurrent()) throw new Error("the Next build does not match the sources: `npm start` would build again at run time");
    console.log("The Next build matches the sources.");
    return;
  }
  ensurePrismaClient();
  ensureNextBuild();
}

main();
