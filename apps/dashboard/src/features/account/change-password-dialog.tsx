import { type FormEvent, useState } from 'react';
import { isApiError } from '../../api/api-error';
import { useChangePassword } from '../../api/auth';
import { useAnnounce } from '../../ui/announcer';
import { Dialog } from '../../ui/dialog';
import { Field } from '../../ui/field';
import { FormError } from '../../ui/form-error';

/** `Change password`: the current one and a new one (typed twice); other sessions end, this one stays. */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const [tried, setTried] = useState(false);
  const change = useChangePassword();
  const announce = useAnnounce();
  const problems = isApiError(change.error) ? change.error : null;
  const currentError = tried && current === '' ? 'Enter your current password.' : (problems?.fieldMessage('current_password') ?? null);
  const nextError = tried && next.length < 8 ? 'Use at least 8 characters.' : (problems?.fieldMessage('new_password') ?? null);
  const repeatError = tried && repeated !== next ? 'The two new passwords differ.' : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (current === '' || next.length < 8 || repeated !== next) return;
    change.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: () => {
          announce('Password changed; your other sessions were signed out');
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      title="Change password"
      onClose={onClose}
      footer={
        <button type="submit" form="change-password-form" className="button" disabled={change.isPending}>
          {change.isPending ? 'Changing…' : 'Change password'}
        </button>
      }
    >
      <form id="change-password-form" className="stack" onSubmit={submit} noValidate>
        <Field label="Current password" type="password" autoComplete="current-password" value={current} onChange={(event) => setCurrent(event.target.value)} error={currentError} />
        <Field label="New password" type="password" autoComplete="new-password" value={next} onChange={(event) => setNext(event.target.value)} error={nextError} />
        <Field label="Repeat new password" type="password" autoComplete="new-password" value={repeated} onChange={(event) => setRepeated(event.target.value)} error={repeatError} />
        <p className="muted">Every other place you are signed in will be signed out; you stay signed in here.</p>
        {problems?.details.length ? null : <FormError error={change.error} />}
      </form>
    </Dialog>
  );
}
