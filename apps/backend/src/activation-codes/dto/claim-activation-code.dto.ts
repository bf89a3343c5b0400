import { TextField } from '@rt/contracts';

/** `POST /activation-codes/claim` (any signed-in user, any hat it holds). */
export class ClaimActivationCodeDto {
  @TextField({
    max: 64,
    example: 'ABCD-EFGH-JKLM',
    description: 'The code as the traveller typed it: any case, with or without dashes and spaces.',
  })
  full_code!: string;
}
