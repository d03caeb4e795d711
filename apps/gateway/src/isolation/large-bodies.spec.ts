import { FairScheduler } from '@flowgate/flow-engine';
import { LargeBodies } from './large-bodies';

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('LargeBodies', () => {
  it('lets two large requests of a project in at once; the third waits for one to be answered, other projects do not', async () => {
    const bodies = new LargeBodies(new FairScheduler({ maxSliceMs: 10 }));
    const admitted: string[] = [];
    const admit = (project: string, name: string) => bodies.admit(project).then((release) => (admitted.push(name), release));
    const first = admit('noisy', 'first');
    void admit('noisy', 'second');
    void admit('noisy', 'third');
    void admit('quiet', 'other project');
    await flush();
    expect(admitted).toEqual(['first', 'second', 'other project']);
    (await first)();
    await flush();
    expect(admitted).toEqual(['first', 'second', 'other project', 'third']);
  });
});
