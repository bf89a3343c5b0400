import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';

/** The fields of the line logged per non-blank search (docs/decisions.md D-66). */
export interface SearchLogLine {
  search: string;
  destination: string | null;
  category: string[] | null;
  dates: string | null;
  discountclub: boolean | null;
  seaside: boolean | null;
  n_results: number;
}

/** Writes one JSON log line per non-blank search (with the request id, like every line). */
@Injectable()
export class SearchLog {
  constructor(@InjectPinoLogger('search') private readonly logger: PinoLogger) {}

  write(line: SearchLogLine): void {
    this.logger.info({ event: 'search', ...line }, 'search');
  }
}
