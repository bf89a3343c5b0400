import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../access/access';
import { CurrentUser, SignedIn } from '../access/access.decorators';
import { ApiJsonBodyErrors, ApiValidationFailedResponse } from '../common/api-responses';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserResponseDto } from './dto/user.response';
import { UsersService } from './users.service';

@ApiTags('user')
@Controller('user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @SignedIn()
  @ApiOperation({
    operationId: 'getCurrentUser',
    summary: 'The signed-in user',
    description: 'No `X-Viewing-As` needed.',
  })
  @ApiOkResponse({ type: UserResponseDto, description: 'The signed-in user.' })
  current(@CurrentUser() user: AuthUser): Promise<UserResponseDto> {
    return this.users.profile(user.id);
  }

  @Put()
  @SignedIn()
  @ApiOperation({
    operationId: 'replaceCurrentUser',
    summary: 'Replace the signed-in user',
    description:
      'Full replacement: every field is sent. The email stays unique case-insensitively (422 on `email`). ' +
      'No `X-Viewing-As` needed.',
  })
  @ApiOkResponse({ type: UserResponseDto, description: 'The user as stored.' })
  @ApiValidationFailedResponse()
  @ApiJsonBodyErrors()
  replace(@CurrentUser() user: AuthUser, @Body() dto: UpdateUserDto): Promise<UserResponseDto> {
    return this.users.replaceProfile(user.id, dto);
  }
}
