import { EmailField, TextField } from '@rt/contracts';

/** `POST /login`. */
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
