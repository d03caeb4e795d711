import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ZodResponse } from 'nestjs-zod';
import { DashboardApi } from '../auth/session.guard';
import { SubdomainAvailabilityDto } from './dto/subdomain-availability.dto';
import { SubdomainsService } from './subdomains.service';

@DashboardApi('projects')
@Controller('v1/subdomains')
export class SubdomainsController {
  constructor(private readonly subdomains: SubdomainsService) {}

  @Get(':name')
  @ApiOperation({ summary: 'Whether a subdomain can be used for a new project or a rename (asked while typing)' })
  @ZodResponse({ status: 200, type: SubdomainAvailabilityDto })
  availability(@Param('name') name: string) {
    return this.subdomains.availability(name);
  }
}
