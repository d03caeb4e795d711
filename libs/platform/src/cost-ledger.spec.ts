import { CostLedger } from './cost-ledger';

describe('CostLedger', () => {
  it('halves what a tenant consumed every half-life, and adds what it consumes next', () => {
    const clock = { ms: 0 };
    const ledger = new CostLedger(1000, () => clock.ms);
    ledger.charge('a', 800);
    clock.ms = 1000;
    expect(ledger.consumed('a')).toBeCloseTo(400);
    ledger.charge('a', 100);
    clock.ms = 2000;
    expect(ledger.consumed('a')).toBeCloseTo(250);
    expect(ledger.consumed('never seen')).toBe(0);
  });
});
