import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Paginated } from '@rt/contracts';
import type { ViewingContext } from '../access/access';
import { Public, SignedIn, SuperAdminOnly, Viewing, ViewingAs } from '../access/access.decorators';
import {
  ApiJsonBodyErrors,
  ApiNoContentResponse,
  ApiResourceNotFoundResponse,
  ApiValidationFailedResponse,
} from '../common/api-responses';
import { PathResource } from '../common/resource-id';
import { RateLimit } from '../throttling/rate-limit.decorator';
import { ContactConsentErrorResponseDto } from './dto/contact-consent-error.response';
import { ContactConsentTokenDto } from './dto/contact-consent-token.dto';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { OrganizationListItemDto } from './dto/organization-list-item.response';
import { OrganizationListResponseDto } from './dto/organization-list.response';
import { OrganizationSummaryDto } from './dto/organization-summary.response';
import { OrganizationResponseDto } from './dto/organization.response';
import { OrganizationsQueryDto } from './dto/organizations-query.dto';
import { SignUpOrganizationDto } from './dto/sign-up-organization.dto';
import { UpdateOrganizationStatusDto } from './dto/update-organization-status.dto';
import { UpdateOrganizationDto } from './dto/update-organization.dto';
import { OrganizationManagementService, organizationNotFound } from './organization-management.service';

const ORGANIZATION = new PathResource('organization', organizationNotFound);

@ApiTags('organizations')
@Controller()
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationManagementService) {}

  @Get('organizations')
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'listOrganizations',
    summary: 'List organizations',
    description:
      'By name, then id. `type` and `status` filter (any other value → 422); `per_page` is 25 by ' +
      'default and lowered to 100 silently; `meta.total` is the size of the filtered set.',
  })
  @ApiOkResponse({ type: OrganizationListResponseDto, description: 'One page of organizations.' })
  list(@Query() query: OrganizationsQueryDto): Promise<Paginated<OrganizationListItemDto>> {
    return this.organizations.list(query);
  }

  @Get('organizations/default')
  @SignedIn()
  @ApiOperation({
    operationId: 'getDefaultOrganization',
    summary: 'The default organization',
    description: 'The one organization flagged default (seeded). Any signed-in user; no `X-Viewing-As`.',
  })
  @ApiOkResponse({ type: OrganizationSummaryDto, description: 'Its summary.' })
  @ApiResourceNotFoundResponse('no organization is flagged default.')
  defaultOrganization(): Promise<OrganizationSummaryDto> {
    return this.organizations.defaultOrganization();
  }

  @Get('organization')
  @ViewingAs('organization')
  @ApiOperation({
    operationId: 'getViewedOrganization',
    summary: 'The organization of the viewing context',
    description:
      'The organization named by the `organization:<id>` hat, with its members. A pending or ' +
      'suspended organization → 403 `organization_not_approved`.',
  })
  @ApiOkResponse({ type: OrganizationResponseDto, description: 'The organization with its members.' })
  viewed(@Viewing() viewing: ViewingContext): Promise<OrganizationResponseDto> {
    if (viewing.hat.kind !== 'organization') throw new Error('@ViewingAs("organization") let another hat in');
    return this.organizations.details(viewing.hat.organizationId);
  }

  @Post('organizations')
  @SuperAdminOnly()
  @ApiOperation({
    operationId: 'createOrganization',
    summary: 'Create an organization',
    description:
      'Created `pending`, with its manager: an address of no account creates one without a password ' +
      'and sends it an invitation (set a password); an existing account (the address in its ' +
      'canonical form, D-77: a refused shape → 422 with its `reason`) becomes the ' +
      'manager and is sent `manager-added`, or an invitation again while it has no password. ' +
      'Without the commission pair the defaults apply (`0.00`, `percent`). An address of no account ' +
      'that is reserved (the old address of an email change whose report link still works) → 422 on ' +
      '`manager_email` with `reason: email_taken`.',
  })
  @ApiCreatedResponse({ type: OrganizationResponseDto, description: 'The organization with its members.' })
  @ApiJsonBodyErrors()
  create(@Body() dto: CreateOrganizationDto): Promise<OrganizationResponseDto> {
    return this.organizations.create(dto);
  }

  @Post('organizations/signup')
  @Public()
  @RateLimit('signup')
  @ApiOperation({
    operationId: 'signUpOrganization',
    summary: 'Apply as a reseller',
    description:
      'Creates a `pending` reseller. A contact email of no account creates an account without a ' +
      'password, the manager: no token is issued and no email sent now, it is invited when a ' +
      'super-admin first approves the organization. The existing account of that email (any case) ' +
      'is not attached: it is mailed a link to accept (`POST /organization-contact-consent`), at ' +
      'most once per account in the signup window, and becomes the manager once it accepts. The ' +
      'answer is the same either way. ' +
      'An address of no account that is reserved (the old address of an email change whose report ' +
      'link still works) → 422 on `contact_email` with `reason: email_taken`.',
  })
  @ApiCreatedResponse({ type: OrganizationSummaryDto, description: 'The summary of the application.' })
  @ApiValidationFailedResponse()
  @ApiJsonBodyErrors()
  signUp(@Body() dto: SignUpOrganizationDto): Promise<OrganizationSummaryDto> {
    return this.organizations.signUp(dto);
  }

  @Post('organization-contact-consent')
  @HttpCode(204)
  @Public()
  @ApiOperation({
    operationId: 'acceptOrganizationContactConsent',
    summary: "Accept to manage a signup's organization with the token mailed to its contact",
    description:
      'The token of the link `CLIENT_APP_URL/organization-contact-consent?token=…` mailed to an ' +
      'existing account a public signup named as its contact (valid 7 days by default, single use). ' +
      'Public: the link proves the mailbox, whoever is signed in. The account becomes the manager ' +
      'of the organization; if a super-admin approved it meanwhile, the manager is notified now ' +
      '(an invitation, or `manager-added`). A bad, expired or used token, or one of a consent ' +
      'already given → 422 with `error: invalid_contact_consent_token`.',
  })
  @ApiNoContentResponse('The account is the manager of the organization.')
  @ApiResponse({
    status: 422,
    type: ContactConsentErrorResponseDto,
    description: 'Validation failed, or `invalid_contact_consent_token`.',
  })
  @ApiJsonBodyErrors()
  acceptContactConsent(@Body() dto: ContactConsentTokenDto): Promise<void> {
    return this.organizations.acceptContactConsent(dto.token);
  }

  @Patch('organizations/:id')
  @SuperAdminOnly()
  @ORGANIZATION.route()
  @ApiOperation({
    operationId: 'updateOrganization',
    summary: 'Update an organization',
    description:
      'Absent fields stay as they are; `description: null` clears it. The commission pair comes ' +
      'whole or not at all (one alone → 422 on the missing one).',
  })
  @ApiOkResponse({ type: OrganizationResponseDto, description: 'The organization with its members.' })
  @ApiJsonBodyErrors()
  update(
    @ORGANIZATION.param() id: string,
    @Body() dto: UpdateOrganizationDto,
  ): Promise<OrganizationResponseDto> {
    return this.organizations.update(id, dto);
  }

  @Patch('organizations/:id/status')
  @HttpCode(200)
  @SuperAdminOnly()
  @ORGANIZATION.route()
  @ApiOperation({
    operationId: 'updateOrganizationStatus',
    summary: 'Approve or suspend an organization',
    description:
      '`approved` or `suspended`; `pending` is always refused (422), the body being checked before ' +
      'the organization is looked up. A move to the current status changes nothing and sends ' +
      'nothing. The first approval of an organization whose manager was never notified (a signup) ' +
      'sends the invitation (or `manager-added` to an account with a password); never twice. A ' +
      'signup whose existing contact account has not accepted yet has no manager: its first ' +
      'approval mails that account the consent link again, and it becomes the manager only by ' +
      'accepting it.',
  })
  @ApiOkResponse({ type: OrganizationResponseDto, description: 'The organization with its members.' })
  @ApiJsonBodyErrors()
  changeStatus(
    @ORGANIZATION.param() id: string,
    @Body() dto: UpdateOrganizationStatusDto,
  ): Promise<OrganizationResponseDto> {
    return this.organizations.changeStatus(id, dto.status);
  }
}
