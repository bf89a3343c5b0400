import { ApiProperty } from '@nestjs/swagger';
import { ActivationCodeEventDto } from './activation-code-event.response';
import { ActivationCodeResponseDto } from './activation-code.response';

/** `GET /activation-codes/{id}`: the code with its history, oldest move first. */
export class ActivationCodeDetailsResponseDto extends ActivationCodeResponseDto {
  @ApiProperty({
    type: () => ActivationCodeEventDto,
    isArray: true,
    description: 'Oldest first, newest last.',
  })
  history!: ActivationCodeEventDto[];
}
