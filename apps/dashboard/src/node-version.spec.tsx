/** Node 22 LTS is the floor of every command (scripts/lib/node-version.js): the dashboard tier runs on it. */
describe('Node version', () => {
  it('runs the dashboard tier on Node 22 or later', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
  });
});
