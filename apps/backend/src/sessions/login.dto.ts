import { ApiProperty } from '@nestjs/swagger';
import { EmailField, TextField } from '../common/fields';
import { UserResponseDto } from '../users/user-response.dto';

export class LoginDto {
  @EmailField()
  email!: string;

  @TextField({ max: 128, format: 'password' })
  password!: string;

  @TextField({
    max: 255,
    description: 'Names the device the token is bound to; a readable name, unique per session.',
    example: 'Office app, Firefox on Linux',
  })
  device_name!: string;
}

export class LoginResponseDto {
  @ApiProperty({
    description:
      'Bearer token `<token id>|<secret>`; send it as `Authorization: Bearer <token>`. Shown once.',
    example: '9b2f1c0e-4d0a-4c47-9a51-2f3e0d1c5b7a|Qx7...',
  })
  token!: string;

  @ApiProperty({ type: () => UserResponseDto })
  user!: UserResponseDto;
}
