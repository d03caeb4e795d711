import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { crc32c } from './kafkajs-produce-encoding';

// kafkajs' own CRC-32C (an internal module of the package), the one the patch replaces.
const kafkajsCrc = require('kafkajs/src/protocol/recordBatch/crc32C') as (bytes: Buffer) => number;
const ROOT = path.resolve(__dirname, '../../..');

describe('crc32c', () => {
  it("gives the standard check value and kafkajs' own checksum for every length and alignment", () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32c(Buffer.alloc(0))).toBe(0);
    const bytes = randomBytes(4096);
    for (let length = 0; length <= 70; length++) {
      for (const start of [0, 1, 3, 7]) {
        const slice = bytes.subarray(start, start + length);
        expect(crc32c(slice)).toBe(kafkajsCrc(slice));
      }
    }
    expect(crc32c(bytes)).toBe(kafkajsCrc(bytes));
  });
});

describe('speedUpKafkajsProduce', () => {
  // In a process of its own: the patch replaces a module in Node's require cache, which Jest's
  // module registry does not use, and it must run before kafkajs loads its record batch module.
  const run = (script: string): string =>
    execFileSync(process.execPath, ['-r', './scripts/register-ts.js', '-e', script], { cwd: ROOT, encoding: 'utf8' }).trim();

  it("makes kafkajs write the same record batch, CRC included (the broker refuses a wrong one), and is refused once kafkajs has produced", () => {
    const script = `
      const { speedUpKafkajsProduce } = require('./libs/platform/src/kafkajs-produce-encoding.ts');
      const patched = speedUpKafkajsProduce();
      const again = speedUpKafkajsProduce();
      const original = require('kafkajs/src/protocol/recordBatch/crc32C/crc32C');
      const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0');
      const Record = require('kafkajs/src/protocol/recordBatch/record/v0');
      const value = 'x'.repeat(5000) + '{"path":"/ünï"}';
      RecordBatch({ records: [Record({ key: 'k', value, timestamp: 1 }), Record({ key: 'k', value: 'short', offsetDelta: 1, timestamp: 2 })] }).then((encoder) => {
        const batch = encoder.buffer;
        // Length (int32 at 8) counts from PartitionLeaderEpoch; the CRC (int32 at 17) covers Attributes onwards.
        const crcOk = batch.readUInt32BE(17) === original(batch.subarray(21));
        console.log(JSON.stringify({ patched, again, crcOk, length: batch.readInt32BE(8) === batch.length - 12, hasValue: batch.includes(Buffer.from(value)) }));
      });`;
    expect(JSON.parse(run(script))).toEqual({ patched: true, again: true, crcOk: true, length: true, hasValue: true });

    const late = `
      require('kafkajs/src/protocol/recordBatch/v0');
      const { speedUpKafkajsProduce } = require('./libs/platform/src/kafkajs-produce-encoding.ts');
      console.log(String(speedUpKafkajsProduce()));`;
    expect(run(late)).toBe('false');
  });
});
