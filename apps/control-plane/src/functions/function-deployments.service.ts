import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error';
import { EndpointsService } from '../endpoints/endpoints.service';
import { FlowCompiler } from '../endpoints/flow-compiler';
import { ProjectLimits } from '../endpoints/project-limits';
import { Clock } from '../infrastructure/clock';
import type { Tx } from '../infrastructure/transaction';
import { ProjectsService } from '../projects/projects.service';
import { PublicationService } from '../publication/publication.service';
import { functionCallsOf } from '@flowgate/flow-engine';
import type { FunctionVersionView, FunctionView } from './dto/function.dto';
import { deployRefusal } from './deploy-refusal';
import { FunctionCatalog } from './function-catalog';
import { functionFlowOf, inputsOf, sameFunctionContent, toFunctionVersionView, toFunctionView } from './function-content';
import { findCallCycle } from './function-cycle';
import { type FunctionContent, FunctionsRepository } from './functions.repository';
import { type FunctionWithDiagnostics, FunctionsService } from './functions.service';

/**
 * Deploy, undeploy, versions and rollback of functions, as endpoints have them. Each runs under
 * the project's publication lock: when the answer leaves, every gateway's next request calls
 * the version made live (it travels in the project's document with the endpoints).
 */
@Injectable()
export class FunctionDeploymentsService {
  constructor(
    private readonly functions: FunctionsRepository,
    private readonly drafts: FunctionsService,
    private readonly catalog: FunctionCatalog,
    private readonly endpoints: EndpointsService,
    private readonly projects: ProjectsService,
    private readonly publication: PublicationService,
    private readonly compiler: FlowCompiler,
    private readonly clock: Clock,
    private readonly limits: ProjectLimits,
  ) {}

  async deploy(accountId: string, projectId: string, functionId: string): Promise<FunctionWithDiagnostics> {
    await this.projects.requireOwned(accountId, projectId);
    await this.limits.count(accountId, 'deploy');
    const context = await this.endpoints.compileContext(projectId);
    const { record, diagnostics } = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const draft = await this.drafts.requireIn(tx, projectId, functionId);
      const outcome = this.compiler.compileFunction(functionFlowOf(draft), inputsOf(draft), context);
      if (!outcome.ok) throw deployRefusal(await this.endpoints.maskSecrets(projectId, outcome.diagnostics));
      const live = draft.liveVersion === null ? null : await this.functions.findVersion(functionId, draft.liveVersion, tx);
      if (live && sameFunctionContent(live, draft)) return { record: await this.functions.setLive(tx, functionId, live.version, null), diagnostics: outcome.diagnostics };
      await this.assertNoCycle(tx, projectId, functionId, draft);
      const version = await this.functions.createVersion(tx, functionId, draft, outcome.compiled);
      return { record: await this.functions.setLive(tx, functionId, version, null), diagnostics: outcome.diagnostics };
    });
    return { ...toFunctionView(record), diagnostics: await this.endpoints.maskSecrets(projectId, diagnostics) };
  }

  /** Refused (409 `function_in_use`) while live flows call it: their next request would fail. */
  async undeploy(accountId: string, projectId: string, functionId: string): Promise<FunctionView> {
    await this.projects.requireOwned(accountId, projectId);
    await this.limits.count(accountId, 'deploy');
    const record = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const current = await this.drafts.requireIn(tx, projectId, functionId);
      await this.drafts.assertNotCalled(tx, projectId, functionId, 'undeployed');
      return this.functions.setLive(tx, functionId, null, current.draftChangedAt ?? this.clock.now());
    });
    return toFunctionView(record);
  }

  async versions(accountId: string, projectId: string, functionId: string): Promise<FunctionVersionView[]> {
    await this.projects.requireOwned(accountId, projectId);
    const current = await this.drafts.require(projectId, functionId);
    return (await this.functions.listVersions(functionId)).map((version) => toFunctionVersionView(version, current.liveVersion));
  }

  async version(accountId: string, projectId: string, functionId: string, number: number): Promise<FunctionVersionView> {
    await this.projects.requireOwned(accountId, projectId);
    const current = await this.drafts.require(projectId, functionId);
    const version = await this.functions.findVersion(functionId, number);
    if (!version) throw new AppError('not_found', `Version ${number} of this function does not exist`);
    return toFunctionVersionView(version, current.liveVersion);
  }

  /** Rollback: version n (already compiled) becomes live again, unless its calls now make a cycle. */
  async rollback(accountId: string, projectId: string, functionId: string, number: number): Promise<FunctionView> {
    await this.projects.requireOwned(accountId, projectId);
    await this.limits.count(accountId, 'deploy');
    const record = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const draft = await this.drafts.requireIn(tx, projectId, functionId);
      const version = await this.functions.findVersion(functionId, number, tx);
      if (!version) throw new AppError('not_found', `Version ${number} of this function does not exist`);
      await this.assertNoCycle(tx, projectId, functionId, version);
      return this.functions.setLive(tx, functionId, number, sameFunctionContent(version, draft) ? null : this.clock.now());
    });
    return toFunctionView(record);
  }

  /** 400 `function_cycle` when `content` going live would let the function call itself, directly or through others. */
  private async assertNoCycle(tx: Tx, projectId: string, functionId: string, content: FunctionContent): Promise<void> {
    const live = await this.catalog.liveCalls(tx, projectId);
    const own = functionCallsOf(content.flow);
    const cycle = findCallCycle(functionId, (id) => (id === functionId ? own : (live.get(id)?.calls ?? [])));
    if (cycle === null) return;
    const names = cycle.map((id) => (id === functionId ? content.name : (live.get(id)?.name ?? id)));
    const chain = names.join(' → ');
    throw new AppError('function_cycle', `The function would call itself (${chain}); a function may not call itself, directly or through others`, [
      { path: 'flow', message: `calls form a cycle: ${chain}` },
    ]);
  }
}
