/**
 * The Kubernetes manifests (deploy/k8s): both overlays rendered with `kubectl kustomize`, every
 * object validated against the Kubernetes API schemas (kubernetes-models: the OpenAPI schemas
 * of the API, compiled into the npm package, so nothing is downloaded), then what a cluster
 * would only show once it runs: probes, limits and non-root everywhere, the variables each app
 * needs, images that match the Dockerfiles, the internal API closed to all but gateways, the
 * migration before the apps, and the Ingress serving live and preview hosts. No cluster runs here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { RESERVED_SUBDOMAINS } from '../../apps/control-plane/src/projects/subdomain';
import { loadControlPlaneConfig } from '../../apps/control-plane/src/config/control-plane.config';
import { loadGatewayConfig } from '../../apps/gateway/src/config';
import { loadLogIngestConfig } from '../../apps/log-ingest/src/config';
import { loadWorkerConfig } from '../../apps/worker/src/config';

const root = path.resolve(__dirname, '../..');
const OVERLAYS = ['dev', 'production'] as const;

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean }; configMapKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { runAsNonRoot?: boolean; readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: { runAsNonRoot?: boolean };
  volumes?: { name: string; emptyDir?: object }[];
}
type Workload = K8sObject & { spec: { replicas?: number; template: { metadata: { labels: Record<string, string> }; spec: PodSpec } } };

function render(overlay: string): K8sObject[] {
  let output: string;
  try {
    output = execFileSync('kubectl', ['kustomize', path.join(root, 'deploy/k8s/overlays', overlay)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { code, stderr } = error as { code?: string; stderr?: string };
    throw new Error(code === 'ENOENT' ? 'kubectl is not installed: these checks render the manifests with `kubectl kustomize`' : `kubectl kustomize ${overlay} failed: ${stderr}`);
  }
  return parseAllDocuments(output).map((document) => document.toJSON() as K8sObject);
}

/** The kubernetes-models class of an object (`apps/v1` Deployment → kubernetes-models/apps/v1). */
function modelOf(object: K8sObject): (new (data: unknown) => { validate(): void }) | undefined {
  try {
    const group = require(`kubernetes-models/${object.apiVersion}`) as Record<string, new (data: unknown) => { validate(): void }>;
    return group[object.kind];
  } catch {
    return undefined;
  }
}

/**
 * Kustomize writes long base64 Secret values as block scalars broken into lines; the API server
 * decodes base64 ignoring line breaks, the schema's `byte` format does not.
 */
function asTheApiServerReadsIt(object: K8sObject): K8sObject {
  if (object.kind !== 'Secret' || !object.data) return object;
  const data = Object.fromEntries(Object.entries(object.data as Record<string, string>).map(([key, value]) => [key, value.replace(/\s+/g, '')]));
  return { ...object, data };
}

const rendered = Object.fromEntries(OVERLAYS.map((overlay) => [overlay, render(overlay)])) as Record<(typeof OVERLAYS)[number], K8sObject[]>;

const workloads = (objects: K8sObject[]): Workload[] =>
  objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job').map((o) => o as Workload);
const deployment = (objects: K8sObject[], app: string): Workload => {
  const found = workloads(objects).find((w) => w.kind === 'Deployment' && w.spec.template.metadata.labels['app.kubernetes.io/name'] === app);
  if (!found) throw new Error(`no Deployment for ${app}`);
  return found;
};
const appOf = (workload: Workload): string => workload.spec.template.metadata.labels['app.kubernetes.io/name'];
const configMap = (objects: K8sObject[]): Record<string, string> => {
  const found = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('flowgate-config'));
  if (!found) throw new Error('no flowgate-config ConfigMap');
  return found.data as Record<string, string>;
};
const matches = (selector: Record<string, string>, labels: Record<string, string>): boolean =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

/** Values for the Secret's keys where the overlay does not render it (production: the operator creates it). */
const SECRET_STAND_INS: Record<string, string> = {
  DATABASE_URL: 'postgresql://flowgate:secret@postgres.example.internal:5432/flowgate',
  DATA_DATABASE_URL: 'postgresql://flowgate:secret@postgres.example.internal:5432/flowgate_data',
  REDIS_URL: 'rediss://:secret@redis.example.internal:6379',
  FLOWGATE_ENCRYPTION_KEY: 'ab'.repeat(32),
  FLOWGATE_SERVICE_TOKEN: 'cd'.repeat(24),
};

/** A container's environment as the kubelet would build it from the rendered objects. */
function environmentOf(container: Container, objects: K8sObject[]): Record<string, string> {
  const env: Record<string, string> = {};
  const byName = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(env, (byName('ConfigMap', source.configMapRef.name)?.data as Record<string, string>) ?? {});
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) env[variable.name] = variable.value;
    const secretRef = variable.valueFrom?.secretKeyRef;
    if (secretRef) {
      const secret = byName('Secret', secretRef.name) as (K8sObject & { data?: Record<string, string> }) | undefined;
      const value = secret ? Buffer.from(secret.data?.[secretRef.key] ?? '', 'base64').toString('utf8') || undefined : SECRET_STAND_INS[secretRef.key];
      if (value !== undefined) env[variable.name] = value;
      else if (!secretRef.optional) throw new Error(`${container.name}: ${variable.name} refers to ${secretRef.name}/${secretRef.key}, which is not there`);
    }
    const configRef = variable.valueFrom?.configMapKeyRef;
    if (configRef) env[variable.name] = (byName('ConfigMap', configRef.name)?.data as Record<string, string>)[configRef.key];
  }
  return env;
}

/**
 * What each app must be given in a cluster: the variables without a default, and those whose
 * default only fits one machine (127.0.0.1 addresses, the development domain).
 */
const REQUIRED: Record<string, string[]> = {
  'control-plane': ['NODE_ENV', 'DATABASE_URL', 'DATA_DATABASE_URL', 'REDIS_URL', 'GATEWAY_DOMAIN', 'GATEWAY_PUBLIC_URL', 'FLOWGATE_ENCRYPTION_KEY', 'FLOWGATE_SERVICE_TOKEN', 'CONTROL_PLANE_INTERNAL_HOST'],
  gateway: ['NODE_ENV', 'REDIS_URL', 'DATA_DATABASE_URL', 'KAFKA_BROKERS', 'GATEWAY_DOMAIN', 'GATEWAY_PUBLIC_URL', 'CONTROL_PLANE_INTERNAL_URL', 'FLOWGATE_ENCRYPTION_KEY', 'FLOWGATE_SERVICE_TOKEN'],
  'log-ingest': ['NODE_ENV', 'DATABASE_URL', 'KAFKA_BROKERS', 'LOG_INGEST_TOPIC_PARTITIONS'],
  worker: ['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'FLOWGATE_ENCRYPTION_KEY'],
  dashboard: ['CONTROL_PLANE_URL'],
  migrate: ['DATABASE_URL', 'DATA_DATABASE_URL'],
};
/** Each app's own configuration loader: it refuses what the app would refuse at boot. */
const LOADERS: Record<string, (env: NodeJS.ProcessEnv) => unknown> = {
  'control-plane': loadControlPlaneConfig,
  gateway: loadGatewayConfig,
  'log-ingest': loadLogIngestConfig,
  worker: loadWorkerConfig,
};

describe.each(OVERLAYS)('deploy/k8s overlay %s', (overlay) => {
  const objects = rendered[overlay];

  it('renders every kind the deployment needs, each valid against the Kubernetes API schema', () => {
    const kinds = new Set(objects.map((o) => o.kind));
    for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'NetworkPolicy', 'Job', 'Ingress', 'ConfigMap']) expect(kinds).toContain(kind);
    const problems: string[] = [];
    for (const object of objects) {
      const Model = modelOf(object);
      if (!Model) {
        problems.push(`${object.kind} ${object.metadata.name}: unknown apiVersion ${object.apiVersion}`);
        continue;
      }
      try {
        new Model(asTheApiServerReadsIt(object)).validate();
      } catch (error) {
        problems.push(`${object.kind} ${object.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives every container probes, requests and limits, a non-root user and a read-only root with /tmp on an emptyDir', () => {
    const problems: string[] = [];
    for (const workload of workloads(objects)) {
      const pod = workload.spec.template.spec;
      const all = [...(pod.initContainers ?? []), ...pod.containers];
      for (const container of all) {
        const where = `${workload.kind} ${workload.metadata.name} / ${container.name}`;
        const long = workload.kind === 'Deployment' && pod.containers.includes(container);
        if (long) {
          for (const probe of ['readinessProbe', 'livenessProbe'] as const) {
            const port = container[probe]?.httpGet?.port;
            if (port === undefined) problems.push(`${where}: no ${probe}`);
            else if (!(container.ports ?? []).some((p) => p.name === port || p.containerPort === port)) problems.push(`${where}: ${probe} on undeclared port ${port}`);
          }
        }
        for (const part of ['requests', 'limits'] as const) {
          for (const resource of ['cpu', 'memory']) if (!container.resources?.[part]?.[resource]) problems.push(`${where}: no ${resource} ${part}`);
        }
        if (!(container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot)) problems.push(`${where}: not runAsNonRoot`);
        if (container.securityContext?.readOnlyRootFilesystem !== true) problems.push(`${where}: root filesystem writable`);
        if (container.securityContext?.allowPrivilegeEscalation !== false) problems.push(`${where}: privilege escalation allowed`);
        if (pod.containers.includes(container)) {
          const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
          if (!tmp || !pod.volumes?.some((volume) => volume.name === tmp.name && volume.emptyDir)) problems.push(`${where}: /tmp is not an emptyDir`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('sets every variable each app needs, and each app accepts its configuration as it would at boot', () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const workload of workloads(objects)) {
      for (const container of [...(workload.spec.template.spec.initContainers ?? []), ...workload.spec.template.spec.containers]) {
        const app = container.name === 'migrate-wait' ? 'migrate' : workload.kind === 'Job' ? 'migrate' : appOf(workload);
        seen.add(app);
        const env = environmentOf(container, objects);
        const wanted = container.name === 'migrate-wait' ? ['DATABASE_URL'] : (REQUIRED[app] ?? []);
        for (const name of wanted) if (!env[name]) problems.push(`${workload.metadata.name} / ${container.name}: ${name} is not set`);
        const loader = LOADERS[app];
        if (loader && container.name === app) {
          try {
            loader(env);
          } catch (error) {
            problems.push(`${app}: ${(error as Error).message}`);
          }
        }
        if (env.NODE_ENV !== undefined && env.NODE_ENV !== 'production') problems.push(`${app}: NODE_ENV=${env.NODE_ENV}`);
      }
    }
    expect(problems).toEqual([]);
    expect([...seen].sort()).toEqual(Object.keys(REQUIRED).sort());
  });

  it('runs the images the Dockerfiles build, with the entry points they contain and the ports they expose', () => {
    const problems: string[] = [];
    for (const workload of workloads(objects)) {
      for (const container of [...(workload.spec.template.spec.initContainers ?? []), ...workload.spec.template.spec.containers]) {
        const match = /(?:^|\/)flowgate\/([a-z-]+)(?::[\w.-]+)?$/.exec(container.image);
        const dockerfile = match ? path.join(root, 'deploy', `Dockerfile.${match[1]}`) : '';
        if (!match || !existsSync(dockerfile)) {
          problems.push(`${container.name}: image ${container.image} is not built by any deploy/Dockerfile.*`);
          continue;
        }
        const source = readFileSync(dockerfile, 'utf8');
        const exposed = [...source.matchAll(/^EXPOSE (\d+)/gm)].map((m) => Number(m[1]));
        for (const port of container.ports ?? []) {
          // The control plane's second listener is configured by variable, not exposed by the image.
          if (!exposed.includes(port.containerPort) && port.name !== 'internal') problems.push(`${container.name}: port ${port.containerPort} is not EXPOSEd by ${path.basename(dockerfile)}`);
        }
        const script = container.command?.find((part) => part.startsWith('dist/'));
        if (script) {
          const tsSource = path.join(root, script.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
          if (!existsSync(tsSource)) problems.push(`${container.name}: runs ${script}, but ${path.relative(root, tsSource)} does not exist`);
          if (!/pack-app\.js control-plane/.test(source)) problems.push(`${container.name}: ${script} is not in ${path.basename(dockerfile)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('points every Service, autoscaler and disruption budget at pods that exist', () => {
    const deployments = objects.filter((o) => o.kind === 'Deployment') as Workload[];
    const podsOf = (selector: Record<string, string>) => deployments.filter((d) => matches(selector, d.spec.template.metadata.labels));
    const problems: string[] = [];
    for (const service of objects.filter((o) => o.kind === 'Service') as (K8sObject & { spec: { selector: Record<string, string>; ports: { targetPort: string | number }[] } })[]) {
      const targets = podsOf(service.spec.selector);
      if (targets.length === 0) problems.push(`Service ${service.metadata.name} selects no pods`);
      for (const port of service.spec.ports) {
        if (!targets.every((t) => t.spec.template.spec.containers.some((c) => (c.ports ?? []).some((p) => p.name === port.targetPort || p.containerPort === port.targetPort)))) {
          problems.push(`Service ${service.metadata.name}: targetPort ${port.targetPort} not declared by its pods`);
        }
      }
    }
    for (const budget of objects.filter((o) => o.kind === 'PodDisruptionBudget') as (K8sObject & { spec: { selector: { matchLabels: Record<string, string> } } })[]) {
      if (podsOf(budget.spec.selector.matchLabels).length === 0) problems.push(`PodDisruptionBudget ${budget.metadata.name} selects no pods`);
    }
    expect(problems).toEqual([]);
    const hpa = objects.find((o) => o.kind === 'HorizontalPodAutoscaler') as K8sObject & { spec: { scaleTargetRef: { kind: string; name: string }; minReplicas: number } };
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: deployment(objects, 'gateway').metadata.name });
    expect(objects.filter((o) => o.kind === 'PodDisruptionBudget').map((o) => o.metadata.name)).toEqual(expect.arrayContaining(['flowgate-gateway', 'flowgate-control-plane']));
  });

  it('lets only gateways reach the control plane internal API, through its own Service', () => {
    const config = configMap(objects);
    const internalUrl = new URL(config.CONTROL_PLANE_INTERNAL_URL);
    const service = objects.find((o) => o.kind === 'Service' && o.metadata.name === internalUrl.hostname) as K8sObject & { spec: { ports: { port: number; targetPort: string }[] } };
    expect(service.spec.ports).toEqual([expect.objectContaining({ port: Number(internalUrl.port), targetPort: 'internal' })]);
    const controlPlane = deployment(objects, 'control-plane');
    const internalPort = controlPlane.spec.template.spec.containers[0].ports?.find((p) => p.name === 'internal')?.containerPort;
    expect(internalPort).toBe(Number(environmentOf(controlPlane.spec.template.spec.containers[0], objects).CONTROL_PLANE_INTERNAL_PORT));
    const policies = objects.filter((o) => o.kind === 'NetworkPolicy') as (K8sObject & {
      spec: { podSelector: { matchLabels: Record<string, string> }; ingress: { from?: { podSelector?: { matchLabels: Record<string, string> } }[]; ports?: { port: number }[] }[] };
    })[];
    const guarding = policies.filter((p) => matches(p.spec.podSelector.matchLabels, controlPlane.spec.template.metadata.labels));
    expect(guarding.length).toBeGreaterThan(0);
    // Every rule that opens the internal port (or every port) admits gateway pods only.
    const gatewayLabels = deployment(objects, 'gateway').spec.template.metadata.labels;
    const opening = guarding.flatMap((p) => p.spec.ingress).filter((rule) => !rule.ports || rule.ports.some((port) => port.port === internalPort));
    expect(opening.length).toBeGreaterThan(0);
    for (const rule of opening) {
      expect(rule.from?.length).toBeGreaterThan(0);
      for (const peer of rule.from ?? []) expect(peer.podSelector && matches(peer.podSelector.matchLabels, gatewayLabels)).toBe(true);
    }
  });

  it('runs the migration Job before the apps that use PostgreSQL start', () => {
    const job = objects.find((o) => o.kind === 'Job') as Workload;
    expect(job.spec.template.spec.containers[0].command).toEqual(['node', 'dist/libs/db/src/migrate.cli.js']);
    for (const workload of workloads(objects).filter((w) => w.kind === 'Deployment')) {
      const usesDatabase = workload.spec.template.spec.containers.some((c) => (c.env ?? []).some((v) => v.name === 'DATABASE_URL'));
      const waits = (workload.spec.template.spec.initContainers ?? []).some((c) => c.command?.join(' ') === 'node dist/libs/db/src/migrate-wait.cli.js');
      expect({ app: appOf(workload), waits }).toEqual({ app: appOf(workload), waits: usesDatabase });
    }
  });

  it('keeps log-ingest replicas within the request-log topic partitions, and two control planes in production', () => {
    const partitions = Number(configMap(objects).LOG_INGEST_TOPIC_PARTITIONS);
    expect(deployment(objects, 'log-ingest').spec.replicas).toBeLessThanOrEqual(partitions);
    if (overlay === 'production') expect(deployment(objects, 'control-plane').spec.replicas).toBe(2);
  });

  it('routes every project host, live and preview, to the gateways and the dashboard host to a reserved name', () => {
    const domain = configMap(objects).GATEWAY_DOMAIN;
    expect(configMap(objects).GATEWAY_PUBLIC_URL).toContain(`{subdomain}.${domain}`);
    const ingress = objects.find((o) => o.kind === 'Ingress') as K8sObject & {
      spec: { rules: { host: string; http: { paths: { backend: { service: { name: string } } }[] } }[] };
    };
    // Ingress host semantics: an exact host wins; `*.x` matches exactly one label before x.
    const route = (host: string): string | undefined => {
      const exact = ingress.spec.rules.find((rule) => rule.host === host);
      const wildcard = ingress.spec.rules.find((rule) => rule.host.startsWith('*.') && host.endsWith(rule.host.slice(1)) && !host.slice(0, -rule.host.length + 1).includes('.'));
      return (exact ?? wildcard)?.http.paths[0].backend.service.name;
    };
    expect(route(`demo.${domain}`)).toBe('flowgate-gateway');
    expect(route(`demo--preview.${domain}`)).toBe('flowgate-gateway');
    const dashboardRule = ingress.spec.rules.find((rule) => !rule.host.startsWith('*.'));
    expect(dashboardRule?.http.paths[0].backend.service.name).toBe('flowgate-dashboard');
    // A project can never take the dashboard's name.
    expect(RESERVED_SUBDOMAINS.has(dashboardRule!.host.slice(0, -domain.length - 1))).toBe(true);
  });
});
