/** Runs a test worker script's main function: exit 0 when it finishes, 1 (with the error) when it throws. */
export function runWorker(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
