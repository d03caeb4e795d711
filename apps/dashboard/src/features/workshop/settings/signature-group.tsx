import { SIGNATURE_SCHEMES, type SignatureScheme, type SignatureSettings } from '@flowgate/flow-engine';
import { atField, forSettings } from '../diagnostics/diagnostic-lookup';
import { useFlowContext } from '../flow-context';
import { settingsOf } from '../model/workshop-document';
import { useWorkshop } from '../store/workshop-context';
import { FieldShell } from './field-shell';

const SCHEME_LABELS: Record<SignatureScheme, string> = {
  stripe: 'Stripe',
  github: 'GitHub',
  slack: 'Slack',
  standard_webhooks: 'Standard Webhooks',
  hmac_sha256: 'HMAC-SHA256',
};

/** A webhook sender's signature, checked by the gateway on the raw body before anything else (401 otherwise). */
export function SignatureGroup() {
  const signature = useWorkshop((state) => settingsOf(state.doc, 'endpoint').signature ?? null);
  const setSettings = useWorkshop((state) => state.setSettings);
  const problems = forSettings(useWorkshop((state) => state.diagnostics));
  const secretNames = useFlowContext().secret_names ?? [];
  const set = (next: SignatureSettings | null, key: string) => setSettings({ signature: next }, key);
  const patch = (change: Partial<SignatureSettings>, key: string) => signature && set({ ...signature, ...change }, `signature.${key}`);
  return (
    <fieldset className="ws-list" data-field-key="signature">
      <legend>Webhook signature</legend>
      <FieldShell label="Signature scheme" fieldKey="signature.scheme" problems={atField(problems, null, 'signature.scheme')}>
        {(control) => (
          <select
            id={control.id}
            value={signature?.scheme ?? 'none'}
            onChange={(event) => {
              const scheme = event.target.value;
              if (scheme === 'none') return set(null, 'signature');
              set({ tolerance_s: 300, secret: secretNames[0] ?? '', ...signature, scheme: scheme as SignatureScheme }, 'signature.scheme');
            }}
          >
            <option value="none">None</option>
            {SIGNATURE_SCHEMES.map((scheme) => (
              <option key={scheme} value={scheme}>
                {SCHEME_LABELS[scheme]}
              </option>
            ))}
          </select>
        )}
      </FieldShell>
      {signature === null ? (
        <p className="ws-muted">Unsigned: any caller the endpoint’s authentication allows may call it.</p>
      ) : (
        <>
          <FieldShell
            label="Signing secret"
            fieldKey="signature.secret"
            problems={atField(problems, null, 'signature.secret')}
            hint={secretNames.length === 0 ? 'Add the sender’s signing secret under Secrets first.' : undefined}
          >
            {(control) => (
              <select id={control.id} value={signature.secret} aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} onChange={(event) => patch({ secret: event.target.value }, 'secret')}>
                {!secretNames.includes(signature.secret) && <option value={signature.secret}>{signature.secret === '' ? 'Choose a secret' : `${signature.secret} (missing)`}</option>}
                {secretNames.map((name) => (
                  <option key={name}>{name}</option>
                ))}
              </select>
            )}
          </FieldShell>
          {signature.scheme === 'hmac_sha256' && (
            <FieldShell label="Signature header" fieldKey="signature.header" problems={atField(problems, null, 'signature.header')} hint="The header the sender puts the HMAC-SHA256 of the body in (hex or base64).">
              {(control) => (
                <input id={control.id} type="text" spellCheck={false} placeholder="X-Signature" value={signature.header ?? ''} aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} onChange={(event) => patch({ header: event.target.value }, 'header')} />
              )}
            </FieldShell>
          )}
          {signature.scheme !== 'github' && signature.scheme !== 'hmac_sha256' && (
            <FieldShell label="Tolerance (s)" fieldKey="signature.tolerance_s" problems={atField(problems, null, 'signature.tolerance_s')} hint="Older signatures are refused as replays.">
              {(control) => (
                <input id={control.id} type="number" min={1} max={86400} value={signature.tolerance_s} aria-invalid={control.invalid || undefined} aria-describedby={control.describedBy} onChange={(event) => patch({ tolerance_s: Number(event.target.value) }, 'tolerance_s')} />
              )}
            </FieldShell>
          )}
        </>
      )}
    </fieldset>
  );
}
