import { render, screen } from '@testing-library/react';
import { Field } from './field';

describe('Field', () => {
  it('marks an error with aria-invalid and reads it with the field through aria-describedby', () => {
    render(<Field label="Subdomain" value="admin" onChange={() => undefined} error="Subdomain is reserved" />);
    const input = screen.getByRole('textbox', { name: 'Subdomain' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = input.getAttribute('aria-describedby')!.split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain('Subdomain is reserved');
  });

  it('is not invalid without an error', () => {
    render(<Field label="Name" value="" onChange={() => undefined} />);
    expect(screen.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBeNull();
  });
});
