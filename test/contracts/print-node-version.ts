// Prints the version of the Node that runs it (test/contracts/node-version.spec.ts).
process.stdout.write(`${process.version}\n`);
