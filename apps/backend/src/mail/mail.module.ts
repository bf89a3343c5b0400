import { Global, Module } from '@nestjs/common';
import { LoggingMailSender } from './logging-mail-sender';
import { MailSender } from './mail-sender';

@Global()
@Module({
  providers: [{ provide: MailSender, useClass: LoggingMailSender }],
  exports: [MailSender],
})
export class MailModule {}
