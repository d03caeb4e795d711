// @ts-check
// The Node flags each app is deployed with: the one place they are written. Read by the local
// stack (scripts/lib/stack-services.js), the images (scripts/pack-app.js writes them into the
// image's `node-flags` file, which the Dockerfile's CMD passes to node), the test kit
// (DEPLOYMENT_NODE_FLAGS of @flowgate/testing), the benches and the noisy-neighbour drill.
// Why these flags: docs/gateway.md "Deployment notes" and docs/log-pipeline.md "Node flags".
'use strict';

/** @type {Readonly<Record<string, readonly string[]>>} */
const NODE_FLAGS = Object.freeze({
  // A small young generation (less RSS, short scavenges) and GC on the main thread.
  gateway: Object.freeze(['--max-semi-space-size=4', '--single-threaded-gc']),
  // Batches live from fetch to commit: a large young generation lets them die young, and a floor
  // for the old generation's limit keeps mark-compacts rare.
  'log-ingest': Object.freeze(['--single-threaded-gc', '--max-semi-space-size=32', '--initial-old-space-size=128']),
});

/** The deployed Node flags of an app (none for apps not listed). */
const nodeFlagsOf = (/** @type {string} */ app) => [...(NODE_FLAGS[app] ?? [])];

module.exports = { NODE_FLAGS, nodeFlagsOf };
