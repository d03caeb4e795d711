import { type KeyboardEvent, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSignOutEverywhere } from '../../api/auth';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ChangePasswordDialog } from './change-password-dialog';

const ITEMS = ['Change password', 'Sign out everywhere'] as const;
type Item = (typeof ITEMS)[number];

/**
 * The header's `Account` menu (a menu button: arrows move, Escape closes): `Change password`
 * and `Sign out everywhere`, each in a dialog. Focus goes back to the button when a dialog or
 * the menu closes.
 */
export function AccountMenu() {
  // The item to focus while the menu is open; null when it is closed.
  const [opening, setOpening] = useState<number | null>(null);
  const open = opening !== null;
  const [chosen, setChosen] = useState<Item | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const everywhere = useSignOutEverywhere();
  const navigate = useNavigate();

  const focusItem = (index: number) => {
    const items = menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]');
    if (items?.length) items[(index + items.length) % items.length]!.focus();
  };
  // Focus the item in the commit that renders the list, so no key pressed after the menu shows
  // can reach the button instead (a frame later, a quick Enter toggled the menu shut).
  useLayoutEffect(() => {
    if (opening !== null) focusItem(opening);
  }, [opening]);
  const openMenu = (index: number) => setOpening(index);
  const close = () => {
    setOpening(null);
    button.current?.focus();
  };
  const choose = (item: Item) => {
    close(); // the dialog's focus trap returns focus to the button
    setChosen(item);
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      focusItem(moves[event.key]!);
    } else if (event.key === 'Escape' || event.key === 'Tab') close();
  };

  return (
    <div className="account-menu">
      <button
        ref={button}
        type="button"
        className="button secondary"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? 'account-menu-list' : undefined}
        onClick={() => (open ? close() : openMenu(0))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            openMenu(event.key === 'ArrowDown' ? 0 : ITEMS.length - 1);
          }
        }}
      >
        Account
      </button>
      {open && (
        <ul id="account-menu-list" ref={menu} className="menu" role="menu" aria-label="Account" onKeyDown={onMenuKey} onBlur={(event) => !event.currentTarget.contains(event.relatedTarget) && setOpening(null)}>
          {ITEMS.map((item) => (
            <li key={item} role="none">
              <button type="button" role="menuitem" tabIndex={-1} onClick={() => choose(item)}>
                {item}
              </button>
            </li>
          ))}
        </ul>
      )}
      {chosen === 'Change password' && <ChangePasswordDialog onClose={() => setChosen(null)} />}
      {chosen === 'Sign out everywhere' && (
        <ConfirmDialog
          title="Sign out everywhere?"
          confirmLabel="Sign out everywhere"
          busyLabel="Signing out…"
          busy={everywhere.isPending}
          error={everywhere.error}
          onCancel={() => setChosen(null)}
          onConfirm={() => everywhere.mutate(undefined, { onSuccess: () => void navigate('/login', { replace: true }) })}
        >
          <p>Every browser and device signed in to this account is signed out, this one too. You will need your password to sign in again.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
