// `npm run check:previews`: Worker Previews inherit nothing from production, and a binding they do
// not declare again falls back to production's own resource (an R2 bucket, a KV namespace...).
// This check refuses a wrangler.toml whose [previews] block leaves any production binding shared,
// or hands previews a credential that could text, charge or mail real people.
import { readFile } from 'node:fs/promises';
import { parse } from 'smol-toml';
import { runCommand } from '#local/command.ts';
import { LocalSetupError } from '#local/setup-error.ts';

type Table = Record<string, unknown>;

/** Binding lists that point at a shared resource, and the field naming that resource. */
const SHARED_RESOURCES: Record<string, string> = {
  r2_buckets: 'bucket_name',
  kv_namespaces: 'id',
  d1_databases: 'database_id',
  hyperdrive: 'id',
  vectorize: 'index_name',
  analytics_engine_datasets: 'dataset',
};

/** Variables whose value would let a preview reach real people or money. */
const CREDENTIALS = [
  'EMAIL_API_KEY',
  'EGOSMS_USERNAME',
  'EGOSMS_PASSWORD',
  'WHATSAPP_TOKEN',
  'WHATSAPP_APP_SECRET',
  'MOMO_API_USER',
  'MOMO_API_KEY',
  'MOMO_SUBSCRIPTION_KEY',
  'MOMO_DISBURSEMENT_API_USER',
  'MOMO_DISBURSEMENT_API_KEY',
  'MOMO_DISBURSEMENT_SUBSCRIPTION_KEY',
  'AIRTEL_CLIENT_ID',
  'AIRTEL_CLIENT_SECRET',
  'AIRTEL_DISBURSEMENT_PIN',
  'PESAPAL_CONSUMER_KEY',
  'PESAPAL_CONSUMER_SECRET',
  'GOOGLE_GENERATIVE_AI_API_KEY',
];

const list = (value: unknown): Table[] => (Array.isArray(value) ? (value as Table[]) : []);

/** What is wrong with the [previews] block, one line each (empty: nothing). */
export function previewProblems(config: Table): string[] {
  const previews = config.previews as Table | undefined;
  if (!previews) return ['wrangler.toml has no [previews] block: `wrangler preview` needs one'];
  const problems: string[] = [];
  for (const [kind, field] of Object.entries(SHARED_RESOURCES)) {
    for (const binding of list(config[kind])) {
      const own = list(previews[kind]).find((b) => b.binding === binding.binding);
      if (!own) {
        problems.push(
          `${kind} ${String(binding.binding)}: not declared in [previews], so previews would use production's`,
        );
      } else if (own[field] === binding[field]) {
        problems.push(
          `${kind} ${String(binding.binding)}: previews use production's ${field} "${String(own[field])}"`,
        );
      }
    }
  }
  const queues = (config.queues as Table | undefined)?.producers;
  for (const producer of list(queues)) {
    const own = list((previews.queues as Table | undefined)?.producers).find(
      (p) => p.binding === producer.binding,
    );
    if (!own || own.queue === producer.queue) {
      problems.push(
        `queue producer ${String(producer.binding)}: previews would send to production's queue`,
      );
    }
  }
  const vars = (previews.vars ?? {}) as Table;
  for (const name of CREDENTIALS) {
    if (typeof vars[name] === 'string' && vars[name] !== '') {
      problems.push(`[previews.vars] ${name} is set: previews must not reach real people or money`);
    }
  }
  if (vars.MAIL_TRANSPORT !== 'outbox') {
    problems.push(
      '[previews.vars] MAIL_TRANSPORT must be "outbox": previews never mail real addresses',
    );
  }
  return problems;
}

export async function readWranglerConfig(path = 'wrangler.toml'): Promise<Table> {
  return parse(await readFile(path, 'utf8')) as Table;
}

if (import.meta.main) {
  await runCommand(async () => {
    const problems = previewProblems(await readWranglerConfig());
    if (problems.length > 0) throw new LocalSetupError(`[previews]: ${problems.join('; ')}`);
    console.log('[previews] overrides every production binding and holds no credential.');
  });
}
