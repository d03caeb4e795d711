import { useState } from 'react';

/** A list typed as text separated by commas: the text stays as typed (a trailing comma while the next item is typed), the list is what is stored. */
export function CommaListInput({
  id,
  describedBy,
  items,
  placeholder,
  onChange,
}: {
  id: string;
  describedBy: string | undefined;
  items: readonly string[];
  placeholder?: string;
  onChange: (items: string[]) => void;
}) {
  const [text, setText] = useState(() => items.join(', '));
  return (
    <input
      id={id}
      type="text"
      spellCheck={false}
      placeholder={placeholder}
      aria-describedby={describedBy}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        onChange(event.target.value.split(',').map((item) => item.trim()).filter((item) => item !== ''));
      }}
    />
  );
}
