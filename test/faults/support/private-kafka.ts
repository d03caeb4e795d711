import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, processAlive, waitUntil } from '@flowgate/testing';
import { BROKER_TUNING, KAFKA_JVM_OPTS_DEFAULT, kafkaAnswers } from '../../../scripts/lib/services';
import { setTimeout as sleep } from 'node:timers/promises';

const root = resolve(__dirname, '..', '..', '..');
const libs = join(root, '.cache', 'kafka', 'libs');

/**
 * A single-node KRaft broker of its own (own ports, own data directory under .cache/), run
 * from the jars scripts/lib/services/kafka-broker.js fetched — so a drill can stop and restart
 * it without touching the broker every other test uses.
 */
export class PrivateKafka {
  private child: ChildProcess | null = null;
  private readonly dir: string;
  private brokerPort = 0;
  private controllerPort = 0;

  constructor(name: string) {
    this.dir = join(root, '.cache', 'faultdrills', `kafka-${name}-${randomBytes(3).toString('hex')}`);
  }

  get brokers(): string {
    return `127.0.0.1:${this.brokerPort}`;
  }

  get logFile(): string {
    return join(this.dir, 'server.log');
  }

  /** Formats the storage (first call) and starts the broker; resolves once it answers metadata requests. */
  async start(): Promise<void> {
    if (!existsSync(libs)) throw new Error(`fault drill: no Kafka jars in ${libs} — run \`node -e "require('./scripts/lib/services').ensureServices({kafka:true})"\``);
    if (!this.brokerPort) await this.configure();
    const out = openSync(this.logFile, 'a');
    this.child = spawn(
      'java',
      ['-Xmx384m', '-Xms64m', ...KAFKA_JVM_OPTS_DEFAULT.split(' '), '-Djava.awt.headless=true', `-Dlog4j2.configurationFile=${join(this.dir, 'log4j2.properties')}`, '-cp', `${libs}/*`, 'kafka.Kafka', join(this.dir, 'server.properties')],
      { cwd: this.dir, stdio: ['ignore', out, out] },
    );
    closeSync(out);
    const child = this.child;
    // Never outlive the test process, whatever way it ends.
    process.once('exit', () => child.kill('SIGKILL'));
    await waitUntil(async () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`fault drill: the private Kafka broker exited (${child.exitCode}); see ${this.logFile}`);
      return this.answers();
    }, (ready) => ready, `the private Kafka broker on ${this.brokers} (log: ${this.logFile})`, { timeoutMs: 120000, intervalMs: 500 });
  }

  /** Stops the broker the way an operator would (SIGTERM, controlled shutdown). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const pid = child.pid;
    child.kill('SIGTERM');
    await waitUntil(() => !processAlive(pid) || child.exitCode !== null || child.signalCode !== null, (ready) => ready, 'the private Kafka broker to exit', { timeoutMs: 60000 }).catch(async () => {
      child.kill('SIGKILL');
      await sleep(500);
    });
    this.child = null;
  }

  /** Stops the broker and deletes its data. */
  async destroy(): Promise<void> {
    if (this.child && this.child.exitCode === null) this.child.kill('SIGKILL');
    await sleep(200);
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The same readiness probe the stack uses for the shared broker. */
  private answers(): Promise<boolean> {
    return kafkaAnswers([this.brokers]);
  }

  private async configure(): Promise<void> {
    this.brokerPort = await freePort();
    this.controllerPort = await freePort();
    mkdirSync(join(this.dir, 'data'), { recursive: true });
    // The same shape as the development broker of scripts/lib/services/kafka-broker.js, on other ports.
    writeFileSync(
      join(this.dir, 'server.properties'),
      [
        'process.roles=broker,controller',
        'node.id=1',
        `controller.quorum.voters=1@127.0.0.1:${this.controllerPort}`,
        `listeners=PLAINTEXT://127.0.0.1:${this.brokerPort},CONTROLLER://127.0.0.1:${this.controllerPort}`,
        `advertised.listeners=PLAINTEXT://127.0.0.1:${this.brokerPort}`,
        'inter.broker.listener.name=PLAINTEXT',
        'controller.listener.names=CONTROLLER',
        'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        `log.dirs=${join(this.dir, 'data')}`,
        'num.partitions=1',
        'auto.create.topics.enable=false',
        'offsets.topic.replication.factor=1',
        'offsets.topic.num.partitions=3',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
        'share.coordinator.state.topic.replication.factor=1',
        'share.coordinator.state.topic.min.isr=1',
        'group.initial.rebalance.delay.ms=0',
        // The threads and intervals of the broker the scripts run, so the drills exercise those.
        ...BROKER_TUNING,
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(this.dir, 'log4j2.properties'),
      ['status = warn', 'appender.out.type = Console', 'appender.out.name = OUT', 'appender.out.layout.type = PatternLayout',
        'appender.out.layout.pattern = [%d] %p %m (%c)%n', 'rootLogger.level = WARN', 'rootLogger.appenderRef.out.ref = OUT', ''].join('\n'),
    );
    let clusterId = randomBytes(16).toString('base64url');
    while (clusterId.startsWith('-')) clusterId = randomBytes(16).toString('base64url');
    const formatted = spawnSync('java', ['-cp', `${libs}/*`, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', join(this.dir, 'server.properties')], {
      encoding: 'utf8',
    });
    if (formatted.status !== 0) throw new Error(`fault drill: formatting the private Kafka storage failed — ${formatted.stderr || formatted.stdout}`);
  }

  /** The tail of the broker's log, for a failure message. */
  logTail(lines = 20): string {
    try {
      return readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }
}
