import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startProcess, type AppProcess } from '@flowgate/testing';

/**
 * Node-RED 4 with the equivalent flow: http in (GET /shout) → change (JSONata builds
 * `{result: uppercase("hello " & name)}`) → http response. Temporary user directory, no editor.
 */
export function startNodeRed(root: string, port: number): AppProcess & { cleanup(): void } {
  const userDir = mkdtempSync(path.join(tmpdir(), 'flowgate-bench-node-red-'));
  const flows = [
    { id: 'tab1', type: 'tab', label: 'bench' },
    { id: 'in1', type: 'http in', z: 'tab1', url: '/shout', method: 'get', upload: false, wires: [['change1']] },
    {
      id: 'change1',
      type: 'change',
      z: 'tab1',
      rules: [{ t: 'set', p: 'payload', pt: 'msg', to: '{"result": $uppercase("hello " & req.query.name)}', tot: 'jsonata' }],
      wires: [['out1']],
    },
    { id: 'out1', type: 'http response', z: 'tab1', statusCode: '200', headers: { 'content-type': 'application/json' }, wires: [] },
  ];
  writeFileSync(path.join(userDir, 'flows.json'), JSON.stringify(flows));
  writeFileSync(
    path.join(userDir, 'settings.js'),
    `module.exports = ${JSON.stringify({
      uiHost: '127.0.0.1',
      uiPort: port,
      flowFile: 'flows.json',
      httpAdminRoot: false,
      credentialSecret: false,
      telemetry: { enabled: false },
      diagnostics: { enabled: false },
      logging: { console: { level: 'warn', metrics: false, audit: false } },
    })};\n`,
  );
  const service = startProcess(
    'node-red',
    [path.join(root, 'node_modules/node-red/red.js'), '--userDir', userDir, '--settings', path.join(userDir, 'settings.js')],
    { ...process.env, NODE_RED_ENABLE_PROJECTS: 'false' },
    userDir,
  );
  return { ...service, cleanup: () => rmSync(userDir, { recursive: true, force: true }) };
}
