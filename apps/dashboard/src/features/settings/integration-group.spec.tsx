import { render, screen } from '@testing-library/react';
import type { Integration } from '../../api/types';
import { IntegrationGroup } from './integration-group';

const saved: Integration = {
  kind: 'text-generation',
  provider: 'anthropic',
  api_key_masked: '••••abcd',
  needs_new_secret: false,
  default_model: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

const show = (integration: Integration) =>
  render(
    <IntegrationGroup
      title="Text generation"
      description="Anthropic"
      integration={integration}
      apiKey=""
      onApiKey={() => undefined}
      onRemove={() => undefined}
      removing={false}
    />,
  );

describe('IntegrationGroup', () => {
  it('shows a saved key masked', () => {
    show(saved);
    expect(screen.getByText(/Saved: ••••abcd/)).toBeTruthy();
    expect(screen.getByLabelText('API key').getAttribute('aria-invalid')).toBeNull();
  });

  it('asks for the key again when the server can no longer decrypt it', () => {
    show({ ...saved, needs_new_secret: true });
    const input = screen.getByLabelText('API key');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/can no longer be read/).textContent).toContain('Type the key again and save');
    expect(screen.queryByText(/Saved:/)).toBeNull();
  });
});
