import { DOCUMENT_BYTES_PER_SECOND, DocumentPace, MAX_DOCUMENT_WAIT_MS } from './document-pace';

describe('DocumentPace', () => {
  const megabytes = (count: number): number => (count * DOCUMENT_BYTES_PER_SECOND) / 32;

  it('writes the first fetches at once, then makes each wait for the bytes booked before it', () => {
    let now = 0;
    const pace = new DocumentPace(() => now);
    expect(pace.book('p1', megabytes(4))).toBe(0);
    // The first 4 MB took an eighth of the project's second: the next waits for it.
    expect(pace.book('p1', megabytes(4))).toBeCloseTo(125, 6);
    expect(pace.book('p1', megabytes(4))).toBeCloseTo(250, 6);
    now = 400; // the booked time has passed: at once again
    expect(pace.book('p1', megabytes(4))).toBe(0);
  });

  it('paces each project on its own', () => {
    const pace = new DocumentPace(() => 0);
    expect(pace.book('noisy', megabytes(64))).toBe(0);
    expect(pace.book('quiet', 10_000)).toBe(0);
  });

  it('refuses a fetch that would wait longer than a second, and books nothing for it', () => {
    const pace = new DocumentPace(() => 0);
    const waits: Array<number | null> = [];
    for (let fetch = 0; fetch < 12; fetch++) waits.push(pace.book('p1', megabytes(4)));
    expect(waits.slice(0, 9).every((wait) => wait !== null && wait <= MAX_DOCUMENT_WAIT_MS)).toBe(true);
    expect(waits.slice(9)).toEqual([null, null, null]);
  });

  it('forgets a project that left the cache', () => {
    const pace = new DocumentPace(() => 0);
    pace.book('p1', megabytes(32));
    pace.forget('p1');
    expect(pace.book('p1', megabytes(4))).toBe(0);
  });
});
