import { Module } from '@nestjs/common';
import { FunctionCatalog } from './function-catalog';
import { FunctionsRepository } from './functions.repository';

/** The functions as other flows see them; apart from FunctionsModule so that endpoints can use it without a cycle. */
@Module({ providers: [FunctionCatalog, FunctionsRepository], exports: [FunctionCatalog, FunctionsRepository] })
export class FunctionCatalogModule {}
