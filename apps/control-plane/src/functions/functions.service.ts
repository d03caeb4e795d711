import { Inject, Injectable } from '@nestjs/common';
import type { Diagnostic } from '@flowgate/flow-engine';
import { AppError } from '../common/app-error';
import { CONFIG, type ControlPlaneConfig } from '../config/control-plane.config';
import { EndpointsService } from '../endpoints/endpoints.service';
import { FlowCompiler } from '../endpoints/flow-compiler';
import { type LimitedAction, ProjectLimits } from '../endpoints/project-limits';
import { Clock } from '../infrastructure/clock';
import type { Tx } from '../infrastructure/transaction';
import { ProjectsService } from '../projects/projects.service';
import { PublicationService } from '../publication/publication.service';
import type { FunctionInputBody, FunctionView } from './dto/function.dto';
import { type Caller, FunctionCatalog } from './function-catalog';
import { functionContentOf, functionFlowOf, inputsOf, sameFunctionContent, toFunctionView } from './function-content';
import { type FunctionContent, type FunctionRecord, FunctionsRepository } from './functions.repository';

export interface FunctionWithDiagnostics extends FunctionView {
  diagnostics: Diagnostic[];
}

/**
 * Function drafts: create, list, read, Save, delete. Every change is published (the preview
 * address calls the drafts), as an endpoint's is. Deploying lives in FunctionDeploymentsService.
 */
@Injectable()
export class FunctionsService {
  constructor(
    private readonly functions: FunctionsRepository,
    private readonly catalog: FunctionCatalog,
    private readonly projects: ProjectsService,
    private readonly endpoints: EndpointsService,
    private readonly publication: PublicationService,
    private readonly compiler: FlowCompiler,
    private readonly clock: Clock,
    private readonly limits: ProjectLimits,
    @Inject(CONFIG) private readonly config: ControlPlaneConfig,
  ) {}

  async list(accountId: string, projectId: string): Promise<FunctionView[]> {
    await this.projects.requireOwned(accountId, projectId);
    return (await this.functions.list(projectId)).map(toFunctionView);
  }

  async get(accountId: string, projectId: string, functionId: string): Promise<FunctionView> {
    await this.projects.requireOwned(accountId, projectId);
    return toFunctionView(await this.require(projectId, functionId));
  }

  async create(accountId: string, projectId: string, input: FunctionInputBody, action: LimitedAction = 'save'): Promise<FunctionWithDiagnostics> {
    await this.projects.requireOwned(accountId, projectId);
    const content = functionContentOf(input);
    this.limits.assertFlowSize(content.flow);
    await this.limits.count(accountId, action);
    const created = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      await this.assertRoom(tx, projectId);
      return this.functions.create(tx, projectId, content, this.clock.now());
    });
    return { ...toFunctionView(created), diagnostics: await this.validate(projectId, content) };
  }

  async save(accountId: string, projectId: string, functionId: string, input: FunctionInputBody): Promise<FunctionWithDiagnostics> {
    await this.projects.requireOwned(accountId, projectId);
    const content = functionContentOf(input);
    this.limits.assertFlowSize(content.flow);
    await this.limits.count(accountId, 'save');
    const saved = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const current = await this.requireIn(tx, projectId, functionId);
      const live = current.liveVersion === null ? null : await this.functions.findVersion(functionId, current.liveVersion, tx);
      const changed = !live || !sameFunctionContent(live, content);
      return this.functions.saveDraft(tx, functionId, content, changed ? this.clock.now() : null);
    });
    return { ...toFunctionView(saved), diagnostics: await this.validate(projectId, content) };
  }

  /** A function that a live endpoint, schedule or function calls cannot be deleted: 409 `function_in_use` naming them. */
  async delete(accountId: string, projectId: string, functionId: string): Promise<void> {
    await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      await this.requireIn(tx, projectId, functionId);
      await this.assertNotCalled(tx, projectId, functionId, 'deleted');
      await this.functions.delete(tx, functionId);
    });
  }

  /** 409 `function_in_use` when live flows call the function. */
  async assertNotCalled(tx: Tx, projectId: string, functionId: string, what: 'deleted' | 'undeployed'): Promise<void> {
    const callers = await this.catalog.callersOf(tx, projectId, functionId);
    if (callers.length === 0) return;
    throw new AppError(
      'function_in_use',
      `The function cannot be ${what}: ${callers.map((caller) => caller.label).join(', ')} ${callers.length === 1 ? 'calls' : 'call'} it. Remove the calls and deploy those first`,
      callers.map((caller: Caller) => ({ path: `${caller.kind}s.${caller.id}`, message: `${caller.label} calls this function` })),
    );
  }

  async require(projectId: string, functionId: string): Promise<FunctionRecord> {
    const found = await this.functions.find(projectId, functionId);
    if (!found) throw new AppError('function_not_found', 'Function not found');
    return found;
  }

  async requireIn(tx: Tx, projectId: string, functionId: string): Promise<FunctionRecord> {
    const found = await this.functions.find(projectId, functionId, tx);
    if (!found) throw new AppError('function_not_found', 'Function not found');
    return found;
  }

  async validate(projectId: string, content: FunctionContent): Promise<Diagnostic[]> {
    const context = await this.endpoints.compileContext(projectId);
    return this.endpoints.maskSecrets(projectId, this.compiler.validateFunction(functionFlowOf(content), inputsOf(content), context));
  }

  private async assertRoom(tx: Tx, projectId: string): Promise<void> {
    const max = this.config.projectLimits.maxFunctions;
    if ((await this.functions.count(projectId, tx)) < max) return;
    throw new AppError('too_many_functions', `A project may have at most ${max} functions (PROJECT_MAX_FUNCTIONS); delete one first`);
  }
}
