import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';

const AnnounceContext = createContext<(message: string) => void>(() => undefined);

/**
 * The page's one `role="status"` region: "Saved", "Key deleted", … are read by screen readers
 * and shown as a toast for a few seconds. Always in the DOM (a live region added with its text is not read).
 */
export function AnnouncerProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const announce = useCallback((text: string) => {
    clearTimeout(timer.current);
    setMessage(text);
    timer.current = setTimeout(() => setMessage(''), 6000);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div role="status" aria-live="polite" className={message ? 'toast visible' : 'toast'}>
        {message}
      </div>
    </AnnounceContext.Provider>
  );
}

/** `announce("Saved")`: tells the user, visibly and to assistive technology, that an action succeeded. */
export const useAnnounce = () => useContext(AnnounceContext);
