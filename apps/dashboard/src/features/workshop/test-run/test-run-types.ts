import type { TestRunInputDto, TestRunResultDto } from '../../../api/generated/openapi';

/** docs/control-plane.md "Test runs": what `POST …/test-runs` takes and answers. */
export type TestRunBody = TestRunInputDto;
export type TestRunResult = TestRunResultDto;
export type TraceEntry = TestRunResultDto['trace'][number];

export const SKIP_REASONS: Record<NonNullable<TraceEntry['skipped_reason']>, string> = {
  integration_not_configured: 'integration not configured',
  dry_run: 'email shown, not sent',
};
