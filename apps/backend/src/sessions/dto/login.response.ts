import { ApiProperty } from '@nestjs/swagger';
import { UserResponseDto } from '../../users/dto/user.response';

/** The answer of `POST /login`: the token, shown once, and the user resource. */
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
